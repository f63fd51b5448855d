"""`pandora doctor` starts a real worker and reports the layers it applied."""

from __future__ import annotations


def test_doctor_reports_the_layers_a_real_worker_applied(pandora):
    run = pandora("doctor", "--json")
    assert run.exit_code == 0, run.stderr
    report = run.json
    assert report["worker_ran"] is True
    executor = report["executor"]
    worker = executor["workers"][-1]
    # what the kernel offers is what the worker applied, or a warning says otherwise
    assert worker["seccomp"] == executor["seccomp_available"] or executor["warnings"]
    assert worker["landlock_abi"] == executor["landlock_abi"] or executor["warnings"]
    assert worker["rlimits"]["RLIMIT_FSIZE"] == 0
    assert report["ok"] == (not executor["warnings"] and not report["broken_plugins"])
    human = pandora("doctor")
    assert "executor worker ran a program: yes" in human.stdout
