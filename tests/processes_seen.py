"""What a test sees of processes from /proc: whether one lives, and which carry a marker."""

from pathlib import Path

GRACE = 2.0
"""Seconds a stopped solver may take to be gone."""


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as gone: it no longer runs anything)."""
    try:
        return (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]) != "Z"
    except OSError:
        return False


def tagged_processes(tag: str, *, parents: bool = False) -> dict[int, int]:
    """pid → process group (or parent) of every live process whose environment holds ``tag``."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if f"CHESSDOM_TEST_TAG={tag}".encode() not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile, or not ours
        if state[0] != "Z":
            found[int(entry.name)] = int(state[1] if parents else state[2])
    return found
