// What a greedy step chose between, for drawing it: the squares the new piece covers that
// nothing covered before, and the squares that offered as many as the one it took. Both
// are rebuilt from the board (board.js's attacks, the checker's convention); the tie is
// drawn only when it matches the step's own count, so the page never shows a tie the
// search did not have.

import { attackedBy, coverage, squareName } from "./board.js";

// How native_search/greedy.py counts a square's gain under each greedy rule: whether the
// piece's own square counts (``own``) and which squares it may take (``free``: only those
// not covered yet). Constructions (rooks on the diagonal, …) break no ties and are absent.
const RULES = {
  most_newly_dominated: { own: true, free: false },
  most_newly_dominated_independent: { own: true, free: true },
  most_newly_attacked: { own: false, free: false },
  minimum_degree_independent_set: { own: true, free: true },
};

function everySquare(rows, cols) {
  const names = [];
  for (let rank = 0; rank < rows; rank += 1) for (let file = 0; file < cols; file += 1) names.push(squareName(rank, file));
  return names;
}

/** Squares the piece on ``square`` attacks that no piece of ``before`` attacked, and that hold no piece. */
export function newlyCovered(piece, before, square, rows, cols) {
  const { attacked } = coverage(piece, before, rows, cols);
  return attackedBy(piece, square, rows, cols).filter((name) => !attacked.has(name) && !before.includes(name));
}

/** The other squares that offered the step's best gain (``event.best``), or [] when the
 * rule breaks no ties or the squares found do not number ``event.tied``. */
export function tiedSquares(event, piece, before, rows, cols) {
  const rule = RULES[event.why];
  if (!rule || event.tied === undefined || event.tied < 2) return [];
  const { attacked, dominated } = coverage(piece, before, rows, cols);
  const covered = rule.own ? dominated : attacked;
  const gain = (name) => {
    const reach = attackedBy(piece, name, rows, cols);
    if (rule.own) reach.push(name);
    return reach.filter((square) => !covered.has(square)).length;
  };
  const offered = everySquare(rows, cols).filter((name) => !(rule.free && dominated.has(name)) && gain(name) === event.best);
  return offered.length === event.tied ? offered.filter((name) => name !== event.square) : [];
}
