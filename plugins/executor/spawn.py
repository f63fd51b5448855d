"""How a template process is started: a fresh interpreter in isolated mode
(`python -I`: no PYTHON* variables, no user site, neither the working
directory nor the caller's script directory on its import path), with a
minimal environment and no descriptor of the caller's but its control socket.

No multiprocessing: no forkserver, no resource tracker, nothing the caller
shares with a child beyond the two ends it chose.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import plugins

LOCALE_VARIABLES = ("LANG", "LC_ALL", "LC_CTYPE", "TZ")
"""Caller variables that change how text and time read, and nothing else."""

SETTING_PREFIXES = ("PANDORA_KG_", "PANDORA_SPARQL_")
"""Pandora settings that change how sources load (the template must load the
same data as the caller); never credentials."""

SINGLE_THREADED_LIBRARIES = {
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "NUMEXPR_MAX_THREADS": "1",
}
"""A template forks; thread pools that exist at a fork are a hazard, and one
core per run is plenty for a data program."""

BOOTSTRAP = (
    "import sys; sys.path.append(sys.argv[2]); from plugins.executor.template import main; main()"
)


def minimal_environment() -> dict[str, str]:
    """The environment of a template: locale, time zone, loading settings."""
    chosen = {name: os.environ[name] for name in LOCALE_VARIABLES if name in os.environ}
    chosen.update(
        (name, value) for name, value in os.environ.items() if name.startswith(SETTING_PREFIXES)
    )
    chosen.setdefault("LANG", "C.UTF-8")
    chosen.update(SINGLE_THREADED_LIBRARIES)
    return chosen


def start_template(control: socket.socket) -> subprocess.Popen[bytes]:
    """Start a template process whose only extra descriptor is `control`."""
    project_root = str(Path(next(iter(plugins.__path__))).resolve().parent)
    return subprocess.Popen(
        [sys.executable, "-I", "-c", BOOTSTRAP, str(control.fileno()), project_root],
        env=minimal_environment(),
        pass_fds=(control.fileno(),),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        close_fds=True,
        start_new_session=True,
    )
