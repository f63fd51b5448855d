"""The code version kept with each evaluation result, on real git checkouts
made by the test."""

from __future__ import annotations

import subprocess
from importlib.metadata import version

import pytest

from evaluation import code_version as code_version_module


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A git checkout with one code file and one output file, as Pandora's own."""
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent" / "nodes.py").write_text("STEPS = 1\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "results.jsonl").write_text("{}\n")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "first"], check=True)
    monkeypatch.setattr(code_version_module, "PROJECT_ROOT", tmp_path)
    code_version_module.code_version.cache_clear()
    yield tmp_path
    code_version_module.code_version.cache_clear()


def commit_of(folder) -> str:
    command = ["git", "-C", str(folder), "rev-parse", "--short", "HEAD"]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


def test_a_clean_checkout_is_its_commit_and_outputs_do_not_count(project):
    (project / "docs" / "results.jsonl").write_text("{}\n{}\n")  # a run appending results
    assert code_version_module.code_version() == commit_of(project)


def test_changed_code_is_marked(project):
    (project / "agent" / "nodes.py").write_text("STEPS = 2\n")
    assert code_version_module.code_version() == commit_of(project) + "+changes"


def test_outside_a_checkout_it_is_the_installed_version(tmp_path, monkeypatch):
    monkeypatch.setattr(code_version_module, "PROJECT_ROOT", tmp_path)
    code_version_module.code_version.cache_clear()
    try:
        assert code_version_module.code_version() == f"pandora-skr {version('pandora-skr')}"
    finally:
        code_version_module.code_version.cache_clear()
