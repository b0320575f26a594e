"""The requests of the placement kinds, answered by the models: domination (γ, i, γt) and
independence (β), each with its job form (longer time limit), and the check of a given
placement (``POST /verify``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from chessdom.chessboard import VARIANT_OBJECTIVES
from chessdom.models import SOLVERS
from chessdom.models.certificates.tree import FORMS as CERTIFICATE_FORMS

from chessdom.api.requests.fields import (
    ON_THE_BOARD,
    SEARCH_MAX_SIDE,
    JobTimeLimit,
    ModelBoard,
    PieceName,
    SearchBoard,
    Seed,
    SquareName,
    TimeLimit,
)
from chessdom.api.requests.rules import ExactlyOne, examples, field_error


class PlacementRequest(ModelBoard):
    piece: PieceName
    solver: Literal[SOLVERS] = "auto"
    time_limit: TimeLimit = 10.0
    count: bool = Field(False, description="also count optimal placements, and up to symmetry")
    seed: Seed = 0
    use_theorems: bool = Field(False, description="allow a cited theorem as the proof of the bound")
    certify: bool = Field(
        False,
        description="with an optimal answer, also a certificate of its bound, accepted by an independent checker "
                    "before `checked: true`: where the branch-and-bound answers, the search tree it wrote as it "
                    "searched (`form: tree`; with count, the tree of its one search listing every placement), else "
                    "the plain formula and its DRAT refutations (`form: drat`); it shares the time limit with the "
                    "solve; certified answers are not served from the cache",
    )
    certificate_form: Literal[CERTIFICATE_FORMS] | None = Field(
        None,
        description="with certify: `auto` (the default) as certify says; `tree` the branch-and-bound's search tree "
                    "whatever answered (its search run again if it did not, past the time limit if it must; "
                    "domination variants only); `lrat` the plain formula and its LRAT refutations (binary, "
                    "gzip-compressed; what `auto` writes where no tree applies), which lrat-trim and cake_lpr read too; "
                    "`drat` its text DRAT refutations, which drat-trim reads",
    )
    trace: bool = Field(False, description="also the greedy baseline's steps, each with the squares it gained")
    cache: bool = Field(True, description="false: solve afresh rather than serve a proven optimum from the cache")
    representatives: bool = Field(
        False, description="with count: also one placement per symmetry class (a job pages them at "
        "GET /jobs/{id}/representatives)",
    )

    @model_validator(mode="after")
    def _certified_form(self):
        if self.certificate_form is not None and not self.certify:
            raise field_error(type(self), "certificate_form", self.certificate_form, "needs_certify",
                              "certificate_form says how to certify: give it with certify true")
        return self


FROM_ATLAS = Field(
    False, description="answer from the atlas's proved entry for this n×n problem, its witness re-checked by the "
    "placement checker, without solving (`solver.name` is `atlas`, `atlas` links the entry); solved as usual when "
    "the atlas has no such entry, or the request asks for what the entry cannot give (`certify`, `trace`, a `count` "
    "it has not)")


class IndependenceFields(PlacementRequest):
    """A solve stopped by `time_limit` returns the largest verified set with `optimal: false`."""

    @model_validator(mode="after")
    def _no_tree(self):
        if self.certificate_form == "tree":
            raise field_error(type(self), "certificate_form", self.certificate_form, "tree_certifies_domination",
                              "a search tree certifies domination, independent or total domination, not "
                              "independence: ask for auto or drat")
        return self

    model_config = examples(
        eight_queens=("β(Q8): the eight queens", {"size": 8, "piece": "queen"}),
        rooks_by_sat=("five rooks on 5×7, by SAT", {"rows": 5, "cols": 7, "piece": "rook", "solver": "sat"}),
    )


class DominationFields(PlacementRequest):
    """`variant`: `plain` (γ), `independent` (i) or `total` (γt). A solve stopped by
    `time_limit` returns the best verified placement with `optimal: false`."""

    model_config = examples(
        queens=("γ(Q8): five queens dominate the 8×8 board", {"size": 8, "piece": "queen"}),
        independent_knights=("independent knights on 6×9, counted", {
            "rows": 6, "cols": 9, "piece": "knight", "variant": "independent", "count": True}),
        certified=("γ(Q6) with a certificate of its bound", {"size": 6, "piece": "queen", "certify": True}),
    )

    variant: Literal[tuple(VARIANT_OBJECTIVES)] = "plain"


# A job always solves: the atlas's answer needs no job. So only the request answered at
# once takes `from_atlas`.
class DominationRequest(DominationFields):
    __doc__ = DominationFields.__doc__
    from_atlas: bool = FROM_ATLAS


class IndependenceRequest(IndependenceFields):
    __doc__ = IndependenceFields.__doc__
    from_atlas: bool = FROM_ATLAS


Placement = Annotated[list[SquareName], Field(max_length=SEARCH_MAX_SIDE * SEARCH_MAX_SIDE)]


class VerifyRequest(SearchBoard):
    model_config = examples(
        dominating=("five queens that dominate the 8×8 board", {
            "size": 8, "piece": "queen", "placement": ["b5", "c5", "d5", "e5", "h5"]}),
        attacking=("two rooks that attack each other", {"size": 4, "piece": "rook", "placement": ["a1", "a4"]}),
    )

    exactly_one = (*SearchBoard.exactly_one, ExactlyOne((("placement",), ("squares",))))
    piece: PieceName
    placement: Placement = Field(None, description=(
        "the squares the pieces stand on, as answers give them; each " + ON_THE_BOARD + ", and at most once (names "
        "are case-insensitive: a1 and A1 are one square)"))
    squares: Placement = Field(None, description="deprecated: the old name of `placement`; give one of the two",
                               json_schema_extra={"deprecated": True})

    @property
    def names(self) -> list[str]:
        return self.placement if self.placement is not None else self.squares

    @property
    def names_field(self) -> str:
        """The name this request gave its squares, for the errors that name them."""
        return "placement" if self.placement is not None else "squares"


# Jobs take the same parameters with longer limits.
class DominationJob(DominationFields):
    time_limit: JobTimeLimit = 60.0


class IndependenceJob(IndependenceFields):
    time_limit: JobTimeLimit = 60.0
