"""A fresh interpreter that runs one function of chessdom: the only way processes of
:mod:`chessdom.processes` start.

A ``subprocess`` child rather than a :mod:`multiprocessing` one: it works inside daemonic
processes (a Dask worker under its nanny), never forks a multi-threaded caller, and never
re-imports the caller's main module. It reads frames on its standard input and writes them
to a pipe of its own; it sets its death signal before anything heavy is imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

from chessdom.processes.frames import FrameReader, write_frame
from chessdom.processes.lifetime import kill_process_group

# Packages named in ``stubs`` are entered without running their __init__ (chessdom.models'
# loads OR-Tools and pandas: measured, 0.7 s against 0.25 s to start a SAT solve's child),
# so the functions such a child runs import what they use from the modules defining it.
_BOOTSTRAP = """
import importlib, importlib.util, json, sys
sys.path[:0] = json.loads(sys.argv[2])
for name in json.loads(sys.argv[3]):
    sys.modules[name] = importlib.util.module_from_spec(importlib.util.find_spec(name))
from chessdom.processes.lifetime import die_with_parent
die_with_parent(int(sys.argv[1]))
module, _, function = sys.argv[4].partition(":")
getattr(importlib.import_module(module), function)(int(sys.argv[5]))
"""


@dataclass(eq=False)
class Child:
    """A started child: its process, the pipe it writes frames to, and its input."""

    process: subprocess.Popen
    output: FrameReader

    @property
    def pid(self) -> int:
        return self.process.pid

    def send(self, message) -> None:
        write_frame(self.process.stdin.fileno(), message)

    def kill(self) -> None:
        """Kill it (with its process group when it leads one) and release its pipes."""
        if self.process.poll() is None:
            self.process.kill()
        kill_process_group(self.process.pid)  # children it started; quiet if it leads no group
        self.process.wait()
        if self.process.stdin is not None:
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass
        if self.output.fd >= 0:
            os.close(self.output.fd)
            self.output.fd = -1


def start_child(entry: str, *, stubs: tuple[str, ...] = (), new_session: bool = False) -> Child:
    """Start ``python -c BOOTSTRAP`` running ``entry`` (``"package.module:function"``),
    which is called with the descriptor it writes frames to and reads frames on fd 0.
    ``new_session``: the child leads a process group of its own (killed as one)."""
    output_read, output_write = os.pipe()
    command = [sys.executable, "-c", _BOOTSTRAP, str(os.getpid()), json.dumps(sys.path), json.dumps(list(stubs)),
               entry, str(output_write)]
    try:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, pass_fds=(output_write,),
                                   start_new_session=new_session)
    except BaseException:
        os.close(output_read)
        raise
    finally:
        os.close(output_write)
    return Child(process, FrameReader(output_read))


def heavy_parents(module: str) -> tuple[str, ...]:
    """The packages above ``module`` whose __init__ a child may skip: all but ``chessdom``."""
    parts = module.split(".")
    return tuple(".".join(parts[:end]) for end in range(2, len(parts)))
