"""For the modules that test text DRAT certificates (contract versions 2 to 4): made there,
a certificate's proofs default to DRAT again. ``form="auto"`` writes LRAT (version 6) where
no tree applies, and these modules' forgeries, differential checks against drat-trim and
edits of proof text are about DRAT; version 6 has its own (test_certificates_lrat*.py,
test_certificates_contract_v6.py). Import the fixture into a module to apply it there."""

import pytest

from chessdom.models.certificates import options


@pytest.fixture(scope="module", autouse=True)
def drat_by_default():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(options, "AUTO_PROOF", "drat")
        yield
