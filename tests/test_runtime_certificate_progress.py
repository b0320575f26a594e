"""A certificate never delays the answer: a certified job reports, while the
branch-and-bound that answers writes its tree, that it is ``recording``; then the proved
value at once, and each certificate's state — ``making`` (cube proofs done of total, a
bundle's or region cubes'), ``checking``, then ``checked``, ``unchecked`` or
``unavailable`` with the reason — with its form and the bytes written so far, on its
progress."""

import time
from concurrent.futures import Future, ThreadPoolExecutor

from chessdom.api.runtime import tasks
from chessdom.api.runtime.calls import Certify, PlacementArguments
from chessdom.api.runtime.certificate_store import CertificateStore
from chessdom.chessboard import Board, Objective, Piece, PlacementProblem
from chessdom.library import solve_placement
from chessdom.models import CountOptions, SolveOptions
from chessdom.models.certificates import CertifyOptions, make_certificate
from chessdom.models.certificates.prover import ProofRun

ORDER = ("making", "checking", "checked")


def queens(size: int) -> PlacementProblem:
    return PlacementProblem(Board.square(size), Piece.QUEEN, Objective.DOMINATION)


def test_one_proof_is_made_then_checked(tmp_path):
    states = []
    manifest = make_certificate(solve_placement("queen", 5), tmp_path / "q5", CertifyOptions(time_limit=60,
                                split="never"), on_progress=states.append).manifest
    assert manifest["check"]["checked"]
    assert states == [{"state": "making"}, {"state": "checking"}]


def test_a_cube_bundle_counts_its_proofs_done_before_it_is_checked(tmp_path):
    states = []
    manifest = make_certificate(solve_placement("queen", 6), tmp_path / "q6", CertifyOptions(time_limit=120,
                                split="always"), on_progress=states.append).manifest
    assert manifest["check"]["checked"]
    assert states[0] == {"state": "making"} and states[-1] == {"state": "checking"}
    counted = states[1:-1]
    assert counted[0] == {"state": "making", "done": 0, "total": counted[0]["total"]} and counted[0]["total"] > 1
    assert all(state["state"] == "making" for state in counted)
    done = [state["done"] for state in counted]
    assert done == sorted(done) and all(state["done"] <= state["total"] for state in counted)
    assert counted[-1]["done"] == counted[-1]["total"] == manifest["cubes"]["count"]


def test_region_cubes_count_their_proofs_done_and_the_total_grows_when_one_is_split(tmp_path):
    states = []

    class FirstCubeSplit(ThreadPoolExecutor):
        """Reports the first cube as out of its time slice, so that it is split."""

        split = None

        def submit(self, fn, /, *args, **kwargs):
            if self.split is None:
                self.split = Future()
                self.split.set_result(ProofRun("timeout", None, 0.0, 0))
                return self.split
            return super().submit(fn, *args, **kwargs)

    with FirstCubeSplit(2) as executor:
        manifest = make_certificate(solve_placement("queen", 7), tmp_path / "q7", CertifyOptions(time_limit=120,
                                    split="regions"), executor=executor, on_progress=states.append).manifest
    assert manifest["check"]["checked"] and manifest["prover"]["splits"] == 1
    counted = states[1:-1]
    assert states[0] == {"state": "making"} and states[-1] == {"state": "checking"}
    totals = [state["total"] for state in counted]
    assert counted[0]["done"] == 0 and totals == sorted(totals) and totals[0] < totals[-1]
    assert counted[-1]["done"] == counted[-1]["total"] == len(manifest["regions"]["cubes"])


def test_a_certified_solve_reports_its_answer_then_each_certificates_states(tmp_path, monkeypatch):
    events = []
    monkeypatch.setattr(tasks, "report_event", events.append)
    monkeypatch.setattr(tasks, "_certificates", CertificateStore(tmp_path))
    answer = tasks.placement(PlacementArguments(problem=queens(5), solve=SolveOptions(time_limit=60),
                                                count=CountOptions(), certify=Certify()))
    assert answer.certification.certificate.checked and answer.count_certification.certificate.checked
    solving = [event for event in events if not event.get("certifying")]
    assert solving and all(event["certificate"] == tasks.RECORDING for event in solving)  # the search writes it
    certifying = [event for event in events if event.get("certifying")]
    assert events[len(solving):] == certifying  # recording only while the solve runs
    assert all(event["value"] == 3 and event["lower_bound"] == event["upper_bound"] == 3 for event in certifying)
    assert certifying[0]["certificate"] == {"state": "making", "form": "tree"} and "count_certificate" not in certifying[0]
    bound = [event["certificate"]["state"] for event in certifying]
    assert _distinct(bound) == list(ORDER)
    tree = answer.certification.certificate
    assert certifying[-1]["certificate"] == {"state": "checked", "form": "tree", "search": "kept",
                                             "nodes": certifying[-1]["certificate"]["nodes"], "bytes": tree.size}
    counting = [event["count_certificate"]["state"] for event in certifying if "count_certificate" in event]
    assert _distinct(counting) == list(ORDER)
    counted = certifying[-1]["count_certificate"]  # the count's listing tree, kept from the count
    assert counted == {"state": "checked", "form": "tree", "search": "kept", "nodes": counted["nodes"],
                       "bytes": answer.count_certification.certificate.size}


def test_a_drat_certificate_tells_the_bytes_its_proofs_take_as_they_are_written(tmp_path):
    states = []
    made = CertificateStore(tmp_path).make(solve_placement("queen", 6), CertifyOptions(time_limit=120,
                                           split="always", form="drat"), on_progress=states.append)
    assert made.checked and made.form == "drat" and made.cubes > 1
    written = [state["bytes"] for state in states]
    assert written == sorted(written) and written[0] < written[-1]
    assert states[-1]["state"] == "checking" and 0 < written[-1] < made.size  # the checker's verdict adds a little
    assert len({state["bytes"] for state in states if state.get("done")}) > 1  # the total grows proof by proof


def test_a_certificate_with_no_room_is_unavailable_on_the_progress_saying_why(tmp_path, monkeypatch):
    events = []
    monkeypatch.setattr(tasks, "report_event", events.append)
    monkeypatch.setattr(tasks, "_certificates", CertificateStore(tmp_path))
    answer = tasks.placement(PlacementArguments(problem=queens(4), solve=SolveOptions(time_limit=60),
                                                certify=Certify(max_total_bytes=0, form="drat")))
    reason = answer.certification.unavailable
    assert "no room left" in reason
    assert [event["certificate"] for event in events if event.get("certifying")] == [
        {"state": "making", "form": "drat"}, {"state": "unavailable", "reason": reason, "form": "drat"}]
    assert all("certificate" not in event for event in events if not event.get("certifying"))  # DRAT: no tree


def test_a_certified_jobs_progress_passes_making_and_checking_and_ends_checked(make_app):
    client = make_app().test_client()
    job = client.post("/jobs", json={"kind": "domination", "params": {
        "size": 6, "piece": "queen", "certify": True, "cache": False}}).get_json()
    seen = []
    deadline = time.monotonic() + 120
    while (state := client.get(f"/jobs/{job['id']}").get_json())["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, state
        if (state["progress"] or {}).get("certifying"):
            seen.append(state["progress"]["certificate"]["state"])
        time.sleep(0.01)
    assert state["status"] == "succeeded" and state["result"]["certificate"]["checked"]
    assert state["progress"]["value"] == state["result"]["value"] == 3 and state["progress"]["certifying"]
    final = state["progress"]["certificate"]
    assert final["state"] == "checked" and final["form"] == "tree" and final["search"] == "kept"
    assert final["bytes"] == state["result"]["certificate"]["bytes"]
    assert _distinct(seen) == [name for name in ORDER if name in seen]  # whichever were seen, in order


def _distinct(states: list[str]) -> list[str]:
    """``states`` without repeats in a row."""
    return [state for index, state in enumerate(states) if index == 0 or states[index - 1] != state]
