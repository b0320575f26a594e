// The pieces as the service declares them (chessboard/pieces.py, served at
// /lab/pieces.json): how each one moves, its glyph and its names. The page restates none.

import { callApi } from "./api.js";
import { addWords } from "./i18n.js";

const PIECES = new Map();

/** Fetch the pieces, give the languages their names and fill every piece choice
 * (``select[data-pieces]``); call before the page is translated. */
export async function loadPieces() {
  const { pieces } = await callApi("/lab/pieces.json");
  for (const piece of pieces) {
    PIECES.set(piece.name, piece);
    for (const [language, words] of Object.entries(piece.names)) {
      addWords(language, {
        [`piece_${piece.name}`]: words.one,
        [`pieces_${piece.name}`]: words.many,
        ...(words.instrumental ? { [`with_${piece.name}`]: words.instrumental } : {}),
        ...(words.accusative ? { [`acc_${piece.name}`]: words.accusative } : {}),
      });
    }
  }
  for (const select of document.querySelectorAll("select[data-pieces]")) {
    select.replaceChildren(...pieces.map(({ name }) => {
      const option = document.createElement("option");
      option.value = name;
      option.dataset.i18n = `piece_${name}`;
      option.textContent = name;
      return option;
    }));
  }
}

/** The directions ``name`` slides along and the offsets it leaps, as [rank, file] steps. */
export function moves(name) {
  const { slides, leaps } = PIECES.get(name);
  return { slides, leaps };
}

/** The glyph of ``name``, with U+FE0E so that phones draw text, not emoji. */
export function glyph(name) {
  return `${PIECES.get(name)?.glyph ?? "?"}\uFE0E`;
}

/** The piece a word names in any language ("vezér" is the queen too), or the word itself. */
export function pieceNamed(word) {
  const wanted = word.toLowerCase();
  for (const piece of PIECES.values()) {
    const words = Object.values(piece.names).flatMap(({ one, also }) => [one, ...(also ?? [])]);
    if (piece.name === wanted || words.includes(wanted)) return piece.name;
  }
  return wanted;
}
