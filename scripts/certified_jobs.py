"""``bench_certificates --jobs``: each certified default job against the uncertified default
job, in the same run, through ``POST /jobs`` on a default server (``chessdom serve`` with
its defaults on a temporary data directory), as issue 49 asks.

    python -m chessdom.scripts.bench_certificates --jobs [--rows queen-domination:10-16 ...] [--cap 3600]

A row is ``FAMILY:N`` or ``FAMILY:FROM-TO``: the families of ``bench_models --rows``
(:mod:`.model_families`) and ``queen-total`` (γt(Q_n)). For each row the uncertified job
runs first, then the same job with ``certify``; both with ``cache`` off and ``time_limit``
= cap. The certified job's time is its whole run: the solve, the certificate's making and
the independent checker's verdict. Beside it: the certificate's form (``tree``, ``drat``,
``lrat``, cubes), its bytes (every file its manifest lists), the checker's own seconds, and
the ratios the issue's targets are stated in (certified ÷ uncertified, check ÷ solve). A
job that did not finish within the cap says ``> cap``; every row gives the load average
before and after it (other work may share the cores).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import requests
from tabulate import tabulate

from chessdom.scripts.frontier_rows import job_params, job_time_limit, parse_rows, run_job
from chessdom.scripts.live_server import default_server
from chessdom.scripts.model_families import ROW_FAMILIES

TOTAL_FAMILY = "queen-total"
DEFAULT_ROWS = ("queen-domination:10-16", "queen-independent:12-16", "queen-total:10-13", "knight-domination:12-17",
                "queen-count:12-14", "queen-independent-count:13", "knight-count:13-14")
"""The issue's rows: γ(Q10…16), i(Q12…16), γt(Q10…13), γ(N12…17), counts γ(Q12…14), i(Q13), γ(N13), γ(N14)."""

WARM_UP = (("queen-domination", 5), ("queen-domination", 6), ("queen-count", 5))
"""Run first and not shown: a worker's first solve imports its solver and starts its SAT
child (measured: γ(Q_8) 2.3 s cold, 1.1 s certified right after)."""


def rows_of(spec: str) -> list[tuple[str, int]]:
    """``FAMILY:N`` or ``FAMILY:FROM-TO``, ``queen-total`` among the families."""
    family, _, sizes = spec.partition(":")
    if family == TOTAL_FAMILY:
        return [(family, n) for _, n in parse_rows(f"queen-domination:{sizes}")]
    try:
        return parse_rows(spec)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"{error}, or {TOTAL_FAMILY}") from None


def params_of(family: str, n: int, cap: float, certify: bool) -> dict:
    if family == TOTAL_FAMILY:
        params = {**job_params("queen-domination", n, cap, "auto"), "variant": "total"}
    else:
        params = job_params(family, n, cap, "auto")
    return {**params, "certify": certify}


def certificate_figures(url: str, holder: dict) -> dict:
    """The form, bytes and checker seconds of the certificate in ``holder`` (a job's result,
    or its count for a count's certificate)."""
    made = holder.get("certificate")
    if not made:
        return {"form": None, "bytes": None, "check_seconds": None, "why": holder.get("certificate_unavailable")}
    manifest = requests.get(url + made["manifest"], timeout=60).json()
    evidence = manifest.get("evidence") or {}
    form = evidence.get("form") or ("region cubes" if "regions" in manifest else "cube bundle" if manifest.get("cubes")
                                    else "one proof")
    form = f"{form} (v{str(manifest.get('contract', '')).rpartition('/')[2]})"
    if evidence.get("search"):  # a tree's: kept from the answering search, or written by it run again
        form += f", search {evidence['search']}"
    return {"form": form, "bytes": sum(bytes_listed(manifest)),
            "check_seconds": (made.get("checker") or {}).get("seconds"), "checked": made.get("checked"), "why": None}


def bytes_listed(value) -> list[int]:
    """Every ``bytes`` of a file entry anywhere in a manifest (formula, proofs, tree, cubes)."""
    if isinstance(value, dict):
        own = [value["bytes"]] if isinstance(value.get("bytes"), int) and "sha256" in value else []
        return own + [size for item in value.values() for size in bytes_listed(item)]
    if isinstance(value, list):
        return [size for item in value for size in bytes_listed(item)]
    return []


def measure_row(url: str, family: str, n: int, cap: float) -> dict:
    """The uncertified job, then the certified one, of one row."""
    load = os.getloadavg()[0]
    plain = run_job(url, params_of(family, n, cap, False))
    certified = run_job(url, params_of(family, n, cap, True))
    counting = "count" in family
    line = {"row": f"{family}:{n}", "load": round(load, 2),
            "plain": _seconds_if_done(plain, counting), "certified": _seconds_if_done(certified, counting),
            "value": (plain["result"] or {}).get("value")}
    result = certified["result"] or {}
    line.update(certificate_figures(url, (result.get("count") or {}) if counting else result))
    line["load after"] = round(os.getloadavg()[0], 2)
    return line


def _seconds_if_done(outcome: dict, counting: bool) -> float | None:
    result = outcome["result"] or {}
    done = outcome["status"] == "succeeded" and result.get("status") == "optimal"
    if counting:
        done = done and (result.get("count") or {}).get("exact", False)
    return round(outcome["seconds"], 2) if done else None


def table(lines: list[dict], cap: float) -> str:
    def cell(value, digits=1):
        return f"> {cap:g}" if value is None else f"{value:.{digits}f}"

    def ratio(top, bottom):
        return "" if top is None or not bottom else f"{top / bottom:.2f}"

    headers = ["row", "value", "uncertified s", "certified s", "certified ÷ uncertified", "form", "MB", "check s",
               "check ÷ solve", "load"]
    body = [[line["row"], line["value"], cell(line["plain"]), cell(line["certified"]),
             ratio(line["certified"], line["plain"]), line.get("form") or line.get("why") or "",
             "" if line.get("bytes") is None else f"{line['bytes'] / 1e6:.2f}",
             "" if line.get("check_seconds") is None else f"{line['check_seconds']:.2f}",
             ratio(line.get("check_seconds"), line["plain"]), f"{line['load']}–{line['load after']}"]
            for line in lines]
    return tabulate(body, headers, tablefmt="github", disable_numparse=True)


def main(rows: list[tuple[str, int]], cap: float) -> None:
    """Each row (family, n), uncertified then certified, after the warm-up rows."""
    lines = []
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start",
          flush=True)
    with default_server() as url:
        if cap > (limit := job_time_limit(url)):
            raise SystemExit(f"argument --cap: jobs take a time limit of at most {limit:g} s")
        for family, n in WARM_UP:  # each worker's first solve, certificate and check start their children
            measure_row(url, family, n, cap)
        for family, n in rows:
            line = measure_row(url, family, n, cap)
            print(json.dumps(line), file=sys.stderr, flush=True)
            lines.append(line)
    print(f"certified against uncertified default jobs through POST /jobs, cap {cap:g} s per job")
    print(table(lines, cap))
