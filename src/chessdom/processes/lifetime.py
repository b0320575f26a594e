"""How a process ends with the process it serves. Linux's death signal
(``PR_SET_PDEATHSIG``) fires when the *thread* that started a child exits, so long-lived
children are started from a thread that lives as long as their owner (see
:mod:`.pool`), and watch their owner's pid as well (:func:`end_with`)."""

from __future__ import annotations

import ctypes
import os
import select
import signal
import threading

PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int | None = None) -> None:
    """Ask Linux to SIGKILL this process when its parent dies; exit now if the parent is
    no longer ``parent_pid`` (it may die between starting the child and this call)."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except OSError:
        pass  # not Linux: the caller's deadlines remain
    if parent_pid is not None and os.getppid() != parent_pid:
        os._exit(1)


def kill_process_group(group: int) -> None:
    """SIGKILL every process of ``group``; quiet when none is left."""
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def end_with(pid: int) -> None:
    """Kill this process's group the moment process ``pid`` ends (a thread waiting on a
    pidfd). The death signal does it too, but only for the starting thread's exit."""
    try:
        watched = os.pidfd_open(pid)
    except ProcessLookupError:  # already gone
        kill_process_group(os.getpgrp())
        return
    except (AttributeError, OSError):
        return  # no pidfd here (not Linux ≥ 5.3): the death signal remains

    def watch() -> None:
        select.select([watched], [], [])
        kill_process_group(os.getpgrp())
        os._exit(1)  # not in a group of our own: at least this process goes

    threading.Thread(target=watch, name=f"end-with-{pid}", daemon=True).start()
