"""The kernel's syscall filter (seccomp-bpf through libseccomp) a worker loads
on itself before running programs.

Refused with EPERM: running programs (execve), creating processes (fork,
vfork, clone without CLONE_THREAD; clone3 answers ENOSYS so the C library
falls back to clone, whose flags can be checked), sockets, opening files for
writing or creating them, changing the file system, changing resource limits,
tracing other processes, io_uring (which would bypass the filter) and the
other kernel interfaces a data program never needs. Threads stay allowed:
numpy and pyarrow use them.
"""

from __future__ import annotations

import errno
import os

import pyseccomp as seccomp

CLONE_THREAD = 0x00010000
TIOCSTI = 0x5412
WRITE_FLAGS = (os.O_WRONLY, os.O_RDWR, os.O_CREAT, os.O_TRUNC, os.O_APPEND)

REFUSED_SYSCALLS = (
    # processes and programs
    "execve",
    "execveat",
    "fork",
    "vfork",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kill",
    "pidfd_open",
    "pidfd_getfd",
    "pidfd_send_signal",
    "setrlimit",
    "unshare",
    "setns",
    "personality",
    # network
    "socket",
    "socketpair",
    "connect",
    "bind",
    "listen",
    "accept",
    "accept4",
    # changing the file system
    "creat",
    "openat2",
    "truncate",
    "rename",
    "renameat",
    "renameat2",
    "unlink",
    "unlinkat",
    "mkdir",
    "mkdirat",
    "rmdir",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "mknod",
    "mknodat",
    "chmod",
    "fchmod",
    "fchmodat",
    "chown",
    "fchown",
    "lchown",
    "fchownat",
    "setxattr",
    "lsetxattr",
    "fsetxattr",
    "removexattr",
    "lremovexattr",
    "fremovexattr",
    "utime",
    "utimes",
    "utimensat",
    "futimesat",
    "name_to_handle_at",
    "open_by_handle_at",
    "memfd_create",
    # kernel interfaces
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "keyctl",
    "add_key",
    "request_key",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fspick",
    "mount_setattr",
    "swapon",
    "swapoff",
    "reboot",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "acct",
    "quotactl",
    "settimeofday",
    "clock_settime",
    "adjtimex",
    "sethostname",
    "setdomainname",
    "fanotify_init",
)


def load_seccomp_filter() -> int:
    """Load the filter on this process (irrevocably); return how many rules it has."""
    refuse = seccomp.ERRNO(errno.EPERM)
    syscall_filter = seccomp.SyscallFilter(seccomp.ALLOW)
    rules = 0
    for name in REFUSED_SYSCALLS:
        if _known(name):
            syscall_filter.add_rule(refuse, name)
            rules += 1
    syscall_filter.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    syscall_filter.add_rule(refuse, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
    # prlimit64 may read limits (new_limit == NULL), never change them
    syscall_filter.add_rule(refuse, "prlimit64", seccomp.Arg(2, seccomp.NE, 0))
    for flag in WRITE_FLAGS:
        syscall_filter.add_rule(refuse, "open", seccomp.Arg(1, seccomp.MASKED_EQ, flag, flag))
        syscall_filter.add_rule(refuse, "openat", seccomp.Arg(2, seccomp.MASKED_EQ, flag, flag))
    # pushing characters into the controlling terminal's input
    syscall_filter.add_rule(refuse, "ioctl", seccomp.Arg(1, seccomp.EQ, TIOCSTI))
    rules += 4 + 2 * len(WRITE_FLAGS)
    syscall_filter.load()
    return rules


def _known(name: str) -> bool:
    """Some syscalls do not exist on every architecture (aarch64 has no fork)."""
    return seccomp.resolve_syscall(seccomp.system_arch(), name) >= 0
