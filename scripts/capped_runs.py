"""Processes that end at a cap, for benchmarks that run other programs: a command run in a
session of its own and killed, with every process it started, once it passes its cap; the
living descendants of a process (from ``/proc``); and this process as the subreaper of the
orphans its runs leave, so that it can still find and end them."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from chessdom.processes import die_with_parent

PR_SET_CHILD_SUBREAPER = 36


@dataclass(frozen=True)
class Finished:
    seconds: float
    returncode: int
    stdout: str
    stderr: str


def run_capped(command: list[str], cap: float, stdin: str | None = None) -> Finished | None:
    """Run ``command`` in a session of its own, dying with this process; ``None`` when it
    passed ``cap`` seconds, after killing it and every process it started."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=die_with_parent)
    try:
        stdout, stderr = process.communicate(stdin, timeout=max(cap, 0.0))
    except subprocess.TimeoutExpired:
        return None
    finally:
        if process.returncode is None:  # the cap, or this process interrupted
            kill_tree(process.pid)
            process.communicate()
    return Finished(time.perf_counter() - started, process.returncode, stdout, stderr)


def kill_tree(pid: int) -> None:
    """SIGKILL ``pid``, its process group and every descendant, wherever their sessions
    (the CLI's worker processes lead groups of their own)."""
    doomed = [pid, *descendants(pid)]
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for victim in doomed:
        try:
            os.kill(victim, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def descendants(pid: int) -> list[int]:
    """Every living process below ``pid`` (from ``/proc``; empty where there is none); one
    below a zombie is missed, as are the zombie's own descendants."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # ended while we looked
            state, parent = stat.rsplit(")", 1)[1].split()[:2]
            if state != "Z":  # a zombie has ended already
                children.setdefault(int(parent), []).append(int(entry.name))
    found, waiting = [], list(children.get(pid, ()))
    while waiting:
        child = waiting.pop()
        found.append(child)
        waiting.extend(children.get(child, ()))
    return found


def become_subreaper() -> None:
    """Orphans of the runs (a worker whose parent was killed) are re-parented here rather
    than to init, so that this process can still find (:func:`descendants`) and end them."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1)
    except OSError:
        pass  # not Linux: the runs' own death signals remain
