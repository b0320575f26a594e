// The legend under a board: a swatch and a few words for every shading, mark and sign the
// board shows at that moment (the same classes as the board, so the colours agree).

import { legendEntries } from "./board.js";
import { t } from "./i18n.js";

export function drawLegend(list, view) {
  list.replaceChildren(...legendEntries(view).map((kind) => {
    const item = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = `swatch ${kind}`;
    swatch.setAttribute("aria-hidden", "true");
    if (kind === "access") swatch.textContent = "3";
    item.dataset.legend = kind;
    item.append(swatch, t(`legend_${kind.replace("-", "_")}`));
    return item;
  }));
  list.hidden = list.childElementCount === 0;
}
