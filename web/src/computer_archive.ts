// The games against the computer that have ended, kept in this browser (the server never sees
// them): the last 20, newest first. The computer screen adds to the list and shows it, and so
// does the archive ("My games") beside the server's games.
import { analysisLink } from "./analysis_tree";
import { ComputerGame, type SavedComputerGame } from "./computer_game";
import { download, h } from "./dom";
import { recordJson, recordSgf, recordText } from "./record";
import type { PlyReview } from "./review";
import { formatDate, t } from "./i18n";
import { rulesName } from "./game";

const FINISHED_KEY = "amazons.computer.finished";
const FINISHED_KEPT = 20;

interface Kept {
  game: SavedComputerGame;
  ended: string; // ISO time
}

export interface FinishedComputerGame {
  game: ComputerGame;
  ended: Date;
}

function kept(): Kept[] {
  try {
    const list = JSON.parse(localStorage.getItem(FINISHED_KEY) ?? "[]") as Kept[];
    return Array.isArray(list) ? list.filter((f) => f && f.game && typeof f.ended === "string") : [];
  } catch {
    return [];
  }
}

// The kept games that still replay, newest first.
export function finishedComputerGames(): FinishedComputerGame[] {
  return kept().flatMap((f) => {
    const game = ComputerGame.restore(JSON.stringify(f.game));
    const ended = new Date(f.ended);
    return game ? [{ game, ended: Number.isNaN(ended.getTime()) ? game.started : ended }] : [];
  });
}

// A game that just ended joins the list, once (a game is known by when it started).
export function keepFinishedComputerGame(g: ComputerGame): void {
  const list = kept();
  const id = g.started.toISOString();
  if (list.some((f) => f.game.started === id)) return;
  list.unshift({ game: g.saved(), ended: new Date().toISOString() });
  try {
    localStorage.setItem(FINISHED_KEY, JSON.stringify(list.slice(0, FINISHED_KEPT)));
  } catch {
    /* a full storage keeps the older list */
  }
}

// Text, JSON and SGF of `g`, with a review's annotations when `annotations` has them.
export function computerExportButtons(g: ComputerGame, ended: Date | undefined, idPrefix: string, annotations?: readonly PlyReview[]): HTMLElement {
  const name = `amazons-computer-${g.started.toISOString().slice(0, 19).replace(/[:T]/g, "-")}`;
  const record = () => g.record(annotations, ended);
  return h("span", { class: "export" }, t("export.label") + " ",
    h("button", { id: `${idPrefix}-text`, type: "button", onclick: () => download(`${name}.txt`, recordText(record())) }, t("export.text")),
    h("button", { id: `${idPrefix}-json`, type: "button", onclick: () => download(`${name}.json`, `${JSON.stringify(recordJson(record()), null, 1)}\n`) }, "JSON"),
    h("button", { id: `${idPrefix}-sgf`, type: "button", onclick: () => download(`${name}.sgf`, recordSgf(record())) }, "SGF"));
}

// One line of a list of finished games: when, the rules and level, the result in the player's
// words, a link to the analysis board and the exports. `annotations` gives a game's review.
export function computerGameItem(f: FinishedComputerGame, idPrefix: string, annotations?: (g: ComputerGame) => readonly PlyReview[] | undefined): HTMLElement {
  const g = f.game;
  const result = g.winner === g.you ? "won" : "lost";
  const how = g.resigned ? t("computer.how.resigned", { count: g.moves.length }) : t(`computer.how.${result}${g.flagged ? "_on_time" : ""}`, { count: g.moves.length });
  return h("li", { class: "item", "data-result": result },
    h("span", {}, [formatDate(f.ended, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }), rulesName(g.variant.name), t(`computer.level.short.${g.level}`), how].join(" · ")),
    h("span", { class: "buttons" },
      h("a", { class: "button", id: `${idPrefix}-analyse`, href: analysisLink(g.variant, g.moves, g.moves.length) }, t("home.analysis_board")),
      computerExportButtons(g, f.ended, idPrefix, annotations?.(g))));
}
