"""Landlock, the kernel's file-system and network sandbox for unprivileged
processes, through its three syscalls (there is no libc wrapper).

A template builds the ruleset once (`create_ruleset`); each child enforces it
(`enforce_ruleset`, one syscall). A child may then only read (never write)
files under the paths given (the Python installation, Pandora's own package,
the sources' files, time-zone data), may not bind or connect TCP sockets
(ABI 4+), and may not signal processes or reach abstract UNIX sockets outside
itself (ABI 6+).
"""

from __future__ import annotations

import ctypes
import os
import struct
from collections.abc import Iterable

SYS_CREATE_RULESET = 444  # the same number on every architecture
SYS_ADD_RULE = 445
SYS_RESTRICT_SELF = 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

READ_FILE = 1 << 2
READ_DIR = 1 << 3
FS_RIGHTS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
NET_BIND_AND_CONNECT_TCP = 0b11
SCOPE_ABSTRACT_UNIX_AND_SIGNAL = 0b11

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


class LandlockUnavailable(Exception):
    """The kernel has no Landlock, or refused the ruleset."""


def landlock_abi() -> int:
    """The Landlock ABI version of the running kernel; 0 when there is none."""
    version = _libc.syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0), CREATE_RULESET_VERSION)
    return max(int(version), 0)


def create_ruleset(readable_paths: Iterable[str]) -> tuple[int, int]:
    """A ruleset allowing only reads under `readable_paths` (and no TCP, no
    signals or abstract sockets outside the process where the ABI has them).
    Returns its file descriptor and the ABI used; nothing is enforced yet."""
    abi = landlock_abi()
    if abi < 1:
        raise LandlockUnavailable("the kernel does not support Landlock")
    fs_rights = FS_RIGHTS_BY_ABI[max(v for v in FS_RIGHTS_BY_ABI if v <= abi)]
    attributes = struct.pack("<Q", fs_rights)
    if abi >= 4:
        attributes += struct.pack("<Q", NET_BIND_AND_CONNECT_TCP)
    if abi >= 6:
        attributes += struct.pack("<Q", SCOPE_ABSTRACT_UNIX_AND_SIGNAL)
    ruleset = _call(SYS_CREATE_RULESET, attributes, ctypes.c_size_t(len(attributes)), 0)
    try:
        for path in sorted(set(readable_paths)):
            _allow_reading(ruleset, path)
    except BaseException:
        os.close(ruleset)
        raise
    return ruleset, abi


def enforce_ruleset(ruleset: int) -> None:
    """Restrict this process to `ruleset` from now on, irrevocably (it also
    sets no_new_privs, which seccomp needs too)."""
    if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise LandlockUnavailable(os.strerror(ctypes.get_errno()))
    _call(SYS_RESTRICT_SELF, ruleset, 0)


def _allow_reading(ruleset: int, path: str) -> None:
    try:
        descriptor = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a path that does not exist needs no rule
    try:
        rights = READ_FILE | READ_DIR if os.path.isdir(path) else READ_FILE
        rule = struct.pack("<Qi", rights, descriptor)  # the kernel struct is packed
        _call(SYS_ADD_RULE, ruleset, RULE_PATH_BENEATH, rule, 0)
    finally:
        os.close(descriptor)


def _call(number: int, *args: object) -> int:
    result = _libc.syscall(number, *args)
    if result < 0:
        raise LandlockUnavailable(f"landlock syscall {number}: {os.strerror(ctypes.get_errno())}")
    return int(result)
