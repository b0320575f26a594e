// The Board lab's entry point: language switch, tabs, and the four sections.

import { saved, traceableKinds } from "./api.js";
import { setUpAtlas } from "./atlas.js";
import { setUpChallenges } from "./challenges.js";
import { setUpHistory } from "./history.js";
import { LANGUAGES, onLanguageChange, setLanguage } from "./i18n.js";
import { loadPieces } from "./pieces.js";
import { setUpSolve } from "./solve.js";

function setUpLanguageSwitch() {
  const buttons = [...document.querySelectorAll("button[data-lang]")];
  for (const button of buttons) {
    button.addEventListener("click", () => {
      setLanguage(button.dataset.lang);
      saved.update({ lang: button.dataset.lang });
    });
  }
  onLanguageChange((lang) => {
    for (const button of buttons) button.setAttribute("aria-pressed", String(button.dataset.lang === lang));
  });
}

/** Tabs per the WAI-ARIA pattern: arrow keys move between tabs, Tab moves into the panel. */
function setUpTabs(onShow) {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  const show = (tab, focus) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      document.getElementById(other.getAttribute("aria-controls")).hidden = !selected;
    }
    if (focus) tab.focus();
    saved.update({ tab: tab.id });
    onShow(tab.id);
  };
  for (const tab of tabs) {
    tab.addEventListener("click", () => show(tab, false));
    tab.addEventListener("keydown", (event) => {
      const index = tabs.indexOf(tab);
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (step) show(tabs[(index + step + tabs.length) % tabs.length], true);
      else if (event.key === "Home") show(tabs[0], true);
      else if (event.key === "End") show(tabs.at(-1), true);
    });
  }
  show(document.getElementById(saved.load().tab) ?? tabs[0], false);
}

async function main() {
  const settings = saved.load();
  await loadPieces(); // the piece choices and names, before the page is translated
  setUpLanguageSwitch();
  const fromBrowser = navigator.language?.toLowerCase().startsWith("hu") ? "hu" : "en";
  setLanguage(LANGUAGES.includes(settings.lang) ? settings.lang : fromBrowser);
  const refreshRuns = setUpHistory();
  setUpSolve(await traceableKinds(), refreshRuns);
  try {
    await setUpChallenges();
  } catch (error) {
    document.getElementById("challenge-message").textContent = error.describe?.() ?? String(error);
  }
  await setUpAtlas();
  setUpTabs((id) => id === "tab-history" && refreshRuns());
  document.body.dataset.ready = "true";
}

main();
