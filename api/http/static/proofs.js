// A proof as the models word it (models/cpsat.py, models/sat.py, models/mip.py, models/cubes/, a cited
// theorem), in the page's language: each known form is matched and said again from the
// language's strings; a form not known here is shown as the service sent it.

import { t } from "./i18n.js";

const FORMS = [
  [/^cp-sat: search completed$/, "proof_cpsat_complete"],
  [/^cp-sat: bound proved before the time limit$/, "proof_cpsat_bound"],
  [/^mip: SCIP's branch-and-bound completed$/, "proof_mip_complete"],
  [/^mip: SCIP's dual bound, branch-and-bound not finished$/, "proof_mip_bound"],
  [/^sat: no placement of (?<k>\d+) exists, refuted in (?<cubes>\d+) cubes \((?<detail>[^)]*)\)$/, "proof_sat_cubes"],
  [/^sat: no placement of (?<k>\d+) exists \((?<detail>[^)]*)\)$/, "proof_sat_none_of"],
  [/^sat: RC2 MaxSAT proved no placement of (?<k>\d+) exists \((?<detail>[^)]*)\)$/, "proof_sat_maxsat"],
  [/^sat: no placement exists \((?<detail>[^)]*)\)$/, "proof_sat_none"],
  [/^sat: every square holds a piece$/, "proof_sat_full"],
];
// What may follow a proof: a theorem's bound used as a constraint, or the theorem it rests on.
const ENDINGS = [
  [/, with a cited theorem's bound as a constraint$/, "proof_with_theorem"],
  [/, given (?<citation>.+)$/, "proof_given"],
];

function said(forms, text) {
  for (const [pattern, key] of forms) {
    const match = pattern.exec(text);
    if (match) return { match, words: t(key, match.groups ?? {}) };
  }
  return null;
}

/** ``proof`` in the current language; null and undefined pass through. */
export function proofText(proof) {
  if (!proof) return proof;
  let rest = proof;
  let endings = "";
  for (let ending = said(ENDINGS, rest); ending; ending = said(ENDINGS, rest)) {
    endings = ending.words + endings;
    rest = rest.slice(0, ending.match.index);
  }
  return (said(FORMS, rest)?.words ?? rest) + endings;
}
