"""MkDocs hook: a page's example outputs come from a run at build time, so the page never
shows what its commands no longer print.

A fenced ``sh`` block followed by ``<!-- output -->`` gets, below it, what its commands
print. They run in a scratch directory that the page's blocks share (a certificate one
block writes, the next checks), with this environment's ``chessdom`` first on the PATH. A
block that is a ``curl`` to ``localhost:5000`` is asked of the service the app factory
builds, on a throw-away data directory, through its test client: no port, no server.

Options follow ``output:``, comma-separated: ``last N`` shows the last N lines only,
``exit N`` is the status the commands must end with (0 unless said), ``keys K …`` keeps
only these keys of a JSON answer, ``wrapped`` prints a JSON answer one top-level key a line
(indented, it would take three times the lines). A command that fails, or ends with
another status, fails the build. ``{certificate_id}`` anywhere on the page becomes the
id of the certificate the page's last service answer carried, ``{job_id}`` the id of the
last job the page submitted (the service runs no jobs here: a job stays queued)."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from chessdom.scripts.readme_examples import wrapped_json

# The script holds no ``` of its own: a block without a marker is never run with the next.
OUTPUT = re.compile(r"^```sh\n(?P<script>(?:[^`]|`(?!``))*?)^```\n+<!-- output(?::(?P<options>[^>]*?))? -->", re.M)
SERVICE = "localhost:5000"
TIMEOUT_SECONDS = 300


def _options(text: str | None) -> dict[str, list[str]]:
    """``last 1, exit 1`` → ``{"last": ["1"], "exit": ["1"]}``."""
    words = [option.split() for option in (text or "").split(",") if option.strip()]
    return {name: rest for name, *rest in words}


class PageRun:
    """The commands of one page, in order, in one scratch directory."""

    def __init__(self, scratch: Path):
        self.scratch = scratch
        self.certificate_id: str | None = None
        self.job_id: str | None = None
        self._app = None

    def block(self, match: re.Match) -> str:
        script, options = match["script"], _options(match["options"])
        if script.lstrip().startswith("curl"):
            printed = self._service(script, options.get("keys"), "wrapped" in options)
        else:
            printed = self._shell(script, int(options.get("exit", ["0"])[0]))
        if "last" in options:
            printed = "".join(printed.splitlines(keepends=True)[-int(options["last"][0]):])
        fence = "json" if printed.lstrip().startswith("{") else "text"
        return f"```sh\n{script}```\n\n```{fence}\n{printed.rstrip()}\n```"

    def _shell(self, script: str, status: int) -> str:
        path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
        done = subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=self.scratch, capture_output=True,
                              text=True, timeout=TIMEOUT_SECONDS, env={**os.environ, "PATH": path})
        if done.returncode != status:
            raise RuntimeError(f"the example {script!r} ended with status {done.returncode}, not {status}:\n"
                               f"{done.stdout}{done.stderr}")
        return done.stdout

    def _service(self, script: str, keys: list[str] | None, wrapped: bool) -> str:
        """The service's answer to a ``curl`` example: POST with ``-d``, else GET."""
        words = shlex.split(script.replace("\\\n", " "))
        url = next(word for word in words if word.startswith(SERVICE))
        path = url.removeprefix(SERVICE) or "/"
        client = self._client()
        if "-d" in words:
            response = client.post(path, json=json.loads(words[words.index("-d") + 1]))
        else:
            response = client.get(path)
        answer = response.get_json(force=True)
        if response.status_code >= 400:
            raise RuntimeError(f"the example {script!r} answered {response.status_code}: {answer}")
        certificate = answer.get("certificate") if isinstance(answer, dict) else None
        if certificate:
            self.certificate_id = certificate["id"]
        if path == "/jobs" and response.status_code == 202:
            self.job_id = answer["id"]
        shown = {key: answer[key] for key in keys} if keys else answer
        return wrapped_json(shown) if wrapped else json.dumps(shown, indent=2, ensure_ascii=False) + "\n"

    def _client(self):
        if self._app is None:
            from chessdom.api import create_app

            self._app = create_app(data_dir=self.scratch / "service", run_jobs=False, recover_jobs=False)
        return self._app.test_client()

    def close(self) -> None:
        if self._app is not None:
            self._app.extensions["chessdom"].shutdown()


def on_page_markdown(markdown: str, page, config, files):
    if "<!-- output" not in markdown:
        return markdown
    with tempfile.TemporaryDirectory(prefix="chessdom-examples-") as scratch:
        run = PageRun(Path(scratch))
        try:
            markdown = OUTPUT.sub(run.block, markdown)
        finally:
            run.close()
    if "<!-- output" in markdown:
        raise ValueError(f"{page.file.src_uri}: an output marker does not follow an sh block directly")
    for name, value in (("certificate_id", run.certificate_id), ("job_id", run.job_id)):
        if "{" + name + "}" in markdown:
            if value is None:
                raise ValueError(f"{page.file.src_uri} names {{{name}}} but no answer on it gave one")
            markdown = markdown.replace("{" + name + "}", value)
    return markdown
