"""The kernel's syscall filter (seccomp-bpf, compiled by libseccomp) a child
installs on itself before running a program.

Refused with EPERM: running programs (execve), creating processes (fork,
vfork, clone without CLONE_THREAD; clone3 answers ENOSYS so the C library
falls back to clone, whose flags can be checked), sockets, opening files for
writing or creating them, changing the file system, changing resource limits,
tracing other processes, io_uring (which would bypass the filter), kernel
objects that outlive the process (System V shared memory, message queues and
semaphores, POSIX message queues), changing the priority, scheduling or I/O
priority of any process (the template's, the caller's, the user's), signals
queued to other processes, and the other kernel interfaces a data program
never needs. Threads stay allowed: numpy and pyarrow use them.
"""

from __future__ import annotations

import ctypes
import errno
import os
import tempfile
from typing import Any

CLONE_THREAD = 0x00010000
TIOCSTI = 0x5412
WRITE_FLAGS = (os.O_WRONLY, os.O_RDWR, os.O_CREAT, os.O_TRUNC, os.O_APPEND)
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
BPF_INSTRUCTION_BYTES = 8

_libc = ctypes.CDLL(None, use_errno=True)

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
    "tkill",
    "rt_sigqueueinfo",
    "rt_tgsigqueueinfo",
    "kcmp",
    "process_madvise",
    "process_mrelease",
    "migrate_pages",
    "move_pages",
    # priorities and scheduling (of this process or any other of the user's)
    "setpriority",
    "sched_setscheduler",
    "sched_setparam",
    "sched_setattr",
    "sched_setaffinity",
    "ioprio_set",
    # kernel objects that outlive the process (System V and POSIX IPC)
    "ipc",
    "shmget",
    "shmat",
    "shmctl",
    "shmdt",
    "msgget",
    "msgsnd",
    "msgrcv",
    "msgctl",
    "semget",
    "semop",
    "semtimedop",
    "semctl",
    "mq_open",
    "mq_unlink",
    "mq_timedsend",
    "mq_timedreceive",
    "mq_notify",
    "mq_getsetattr",
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
    "syslog",
    "iopl",
    "ioperm",
    "uselib",
    "vhangup",
    "clock_adjtime",
    "quotactl_fd",
    "fsconfig",
    "modify_ldt",
    "sysfs",
    "lookup_dcookie",
)


class CompiledFilter:
    """The filter as a classic BPF program, ready to install with one prctl.

    libseccomp compiles the rules once (in the template); each child installs
    the compiled program itself, which costs one system call instead of a
    compilation per run.
    """

    def __init__(self) -> None:
        self.rules, program = _compile()
        self._buffer = ctypes.create_string_buffer(program, len(program))
        self._program = _SockFprog(
            len(program) // BPF_INSTRUCTION_BYTES,
            ctypes.cast(self._buffer, ctypes.c_void_p),
        )

    def install(self) -> int:
        """Install the filter on this process (irrevocably; no_new_privs must
        be set already); return how many rules it has."""
        if _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(self._program)) != 0:
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
        return self.rules


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _compile() -> tuple[int, bytes]:
    seccomp = _libseccomp()
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
    with tempfile.TemporaryFile() as exported:
        syscall_filter.export_bpf(exported)
        exported.seek(0)
        return rules, exported.read()


def _known(name: str) -> bool:
    """Some syscalls do not exist on every architecture (aarch64 has no fork)."""
    seccomp = _libseccomp()
    return seccomp.resolve_syscall(seccomp.system_arch(), name) >= 0


def _libseccomp() -> Any:
    """pyseccomp, imported when a filter is compiled: on hosts without libseccomp
    the executor still imports and reports the missing layer loudly."""
    try:
        import pyseccomp
    except (ImportError, OSError) as error:
        raise RuntimeError(f"libseccomp is not available ({error})") from error
    return pyseccomp
