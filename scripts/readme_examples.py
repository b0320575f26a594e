"""The example outputs of the README and of the documentation pages that cannot run their
examples at build time, recorded in one run: each example's command run here, its output
printed under the marker it belongs to, with the run's provenance. The command-line
examples run the installed command itself (``python -m chessdom ...``, in a process of its
own), the service examples ask a real server (``python -m chessdom.api``, which is
``chessdom serve``), and the library example prints what ``solve_placement`` returns, as
the README's Python does — so what a page shows is what the tool prints.

    python -m chessdom.scripts.readme_examples [--write]

``--write`` puts the outputs into the pages in place (each fenced block that follows an
``<!-- example: NAME -->`` marker, in README.md and the pages of :data:`DOC_PAGES`), and
the provenance between the README's ``<!-- recorded -->`` and ``<!-- /recorded -->``;
``tests/test_readme.py`` re-runs every example and fails when a block no longer says what its command prints. (Most
documentation pages need none of this: ``docs/hooks/examples.py`` runs their examples when
the site is built.)
"""

from __future__ import annotations

import argparse
import functools
import json
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from chessdom.scripts.live_server import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOC_PAGES = (ROOT / "docs" / "getting-started.md", ROOT / "docs" / "how-to" / "long-solves.md")
"""The documentation pages with recorded examples, besides the README."""
MARKER = re.compile(r"(<!-- example: (?P<name>[\w-]+) -->\n```(?P<lang>\w*)\n)(?P<body>.*?)(```)", re.S)
RECORDED = re.compile(r"(<!-- recorded -->).*?(<!-- /recorded -->)", re.S)
SERVE_PORT = 5000
"""The port ``make serve`` listens on, which the pages show; the recording listens on a free
one, so that it never meets a service already running."""
SERVICE_QUESTION = {"size": 8, "piece": "queen"}
LOG_STAMP = re.compile(r"^\[[^]]*\] \[\d+\] ", re.M)  # gunicorn's "[time] [pid] " before each line


def _cli(*argv: str, cwd: Path | None = None) -> str:
    """What ``chessdom ARGV`` prints on standard output. A script does not import the
    command (nothing but the command's own entry points does): it runs it."""
    done = subprocess.run([sys.executable, "-m", "chessdom", *argv], capture_output=True, text=True, cwd=cwd)
    if done.returncode != 0:
        raise RuntimeError(f"chessdom {' '.join(argv)} exited with status {done.returncode}:\n{done.stderr}")
    return done.stdout


def library_example() -> str:
    from chessdom import solve_placement

    return f"{solve_placement('knight', (6, 9), variant='total')}\n"  # what print() writes


def cli_example() -> str:
    return _cli("solve", "queen", "8")


def compare_example() -> str:
    """The table as printed, less the provenance comment above it."""
    with tempfile.TemporaryDirectory() as data:
        table = _cli("compare", "domination", "--pieces", "queen", "--sizes", "4-8", "--time-limit", "20",
                     "--data", data)
    return "".join(line + "\n" for line in table.splitlines() if line.startswith("|"))


@functools.cache
def _certified() -> tuple[str, str]:
    """``chessdom solve queen 8 --certify q8/`` and ``chessdom certificate check q8/``, run
    in a scratch directory as a reader runs them: what each prints."""
    with tempfile.TemporaryDirectory() as scratch:
        solved = _cli("solve", "queen", "8", "--certify", "q8/", cwd=Path(scratch))
        return solved, _cli("certificate", "check", "q8/", cwd=Path(scratch))


def certify_example() -> str:
    """The line a certified solve prints after the answer."""
    return _certified()[0].splitlines()[-1] + "\n"


def certificate_example() -> str:
    return _certified()[1]


def wrapped_json(answer: dict) -> str:
    """A JSON object with one top-level key a line: as readable as indented JSON, in a third
    of the lines, and still JSON."""
    items = [f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}" for key, value in answer.items()]
    return "{" + ",\n ".join(items) + "}\n"


@functools.cache
def _served() -> tuple[str, dict, dict]:
    """A server with every default of ``chessdom serve`` but its port and data directory:
    what it logged until it answered, its answer to ``POST /domination`` of γ(Q₈), and its
    refusal to cancel a job that has finished."""
    data = Path(tempfile.mkdtemp(prefix="chessdom-examples-"))
    server = ServerProcess(data / "var", workers=None, threads=None, solver_slots=None, log=data / "serve.log")
    try:
        server.start(timeout=120)
        answer = server.post("/domination", json=SERVICE_QUESTION)
        answer.raise_for_status()
        refused = _cancel_finished(server)
        # Read last: the first worker answers while the second may still be booting.
        return (data / "serve.log").read_text(encoding="utf-8"), answer.json(), refused
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)


def _cancel_finished(server: ServerProcess, timeout: float = 120.0) -> dict:
    """What ``DELETE /jobs/{id}`` answers for a job that has succeeded."""
    submitted = server.post("/jobs", json={"kind": "domination", "params": SERVICE_QUESTION})
    submitted.raise_for_status()
    job = submitted.json()["id"]
    deadline = time.monotonic() + timeout
    while server.get(f"/jobs/{job}").json()["status"] != "succeeded":
        if time.monotonic() > deadline:
            raise TimeoutError(f"job {job} did not succeed within {timeout} s")
        time.sleep(0.2)
    refused = server.delete(f"/jobs/{job}")
    if refused.status_code != 409:
        raise RuntimeError(f"canceling a finished job answered {refused.status_code}, not 409")
    return refused.json()


def serve_example() -> str:
    """What ``make serve`` prints as it starts: the command make echoes, then the server's
    log, each line's time and process id written ``[…]`` and the port ``make serve``'s."""
    log = _served()[0]
    lines = [f".venv/bin/chessdom serve --host 127.0.0.1 --port {SERVE_PORT} --data ./var"]
    for line in LOG_STAMP.sub("[…] ", log).splitlines():
        line = re.sub(r"127\.0\.0\.1:\d+ \(\d+\)", f"127.0.0.1:{SERVE_PORT} (…)", line)
        lines.append(re.sub(r"with pid: \d+", "with pid: …", line))
    return "".join(line + "\n" for line in lines)


def service_example() -> str:
    """The service's answer to γ(Q₈), one key a line, ``wall_time`` rounded and
    ``solver.params.auto`` cut to the rule's name (its figures are a paragraph)."""
    answer = json.loads(json.dumps(_served()[1]))  # a copy: the run's answer serves every call
    params = answer["solver"]["params"]
    if "auto" in params:
        params["auto"] = {"rule": params["auto"]["rule"]}
    answer["wall_time"] = round(answer["wall_time"], 2)
    return wrapped_json(answer)


def cancel_finished_example() -> str:
    return wrapped_json(_served()[2])


@functools.cache
def _job_snapshots() -> tuple[list[dict], dict]:
    """γ(Q₁₁) solved as the service's job runs it: the progress snapshots the job would
    show, and its result."""
    from chessdom import solve_placement

    snapshots: list[dict] = []
    result = solve_placement("queen", 11, on_progress=snapshots.append)
    return snapshots, result.to_dict()


def job_progress_example() -> str:
    """The last snapshot before the optimum was proved, as ``GET /jobs/{id}`` shows it."""
    snapshots, _ = _job_snapshots()
    moment = [snapshot for snapshot in snapshots if snapshot["lower_bound"] != snapshot["upper_bound"]][-1]
    return f'"status": "running",\n"progress": {json.dumps(moment, ensure_ascii=False)}\n'


def job_result_example() -> str:
    """The start of the finished job's ``result``: what ``POST /domination`` answers."""
    _, result = _job_snapshots()
    shown = {key: result[key] for key in ("problem", "status", "value", "lower_bound", "upper_bound", "placement",
                                          "verified", "proof")}
    return f'"status": "succeeded",\n"result": {json.dumps(shown, ensure_ascii=False)[:-1]}, …}}\n'


EXAMPLES: dict[str, Callable[[], str]] = {
    "service": service_example,
    "library": library_example,
    "cli": cli_example,
    "compare": compare_example,
    "certify": certify_example,
    "certificate": certificate_example,
    "serve": serve_example,
    "job-progress": job_progress_example,
    "job-result": job_result_example,
    "cancel-finished": cancel_finished_example,
}
"""Every recorded example, by the name its marker gives; each name is on one page."""


def provenance() -> str:
    revision = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip() or "unknown"
    load = _load()
    shown = f", load average {load:.1f}" if load is not None else ""
    return (f"{time.strftime('%Y-%m-%d')} at revision {revision} on {platform.machine()} "
            f"({platform.python_implementation()} {platform.python_version()}{shown})")


def _load() -> float | None:
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def blocks(page: Path) -> dict[str, str]:
    """The recorded blocks of ``page``, by example name."""
    return {match["name"]: match["body"] for match in MARKER.finditer(page.read_text(encoding="utf-8"))}


def write(outputs: dict[str, str], recorded: str) -> None:
    def replace(match: re.Match) -> str:
        name = match["name"]
        return match[1] + outputs[name] + match[5] if name in outputs else match[0]

    for page in (README, *DOC_PAGES):
        text = MARKER.sub(replace, page.read_text(encoding="utf-8"))
        if page == README:
            text = RECORDED.sub(lambda match: match[1] + recorded + match[2], text)
        page.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="put the outputs into README.md and the pages")
    args = parser.parse_args(argv)
    outputs = {name: example() for name, example in EXAMPLES.items()}
    recorded = provenance()
    print(f"<!-- recorded {recorded} -->")
    for name, output in outputs.items():
        print(f"<!-- example: {name} -->\n{output}")
    if args.write:
        write(outputs, recorded)


if __name__ == "__main__":
    sys.exit(main())
