// The game against the computer's views, drawn from the game alone: a seat with its clock, the
// status line, the result in the player's words, and the move list with the review's marks.
import type { ComputerGame } from "./computer_game";
import { formatClock, h, replaceChildren } from "./dom";
import { sideName } from "./game";
import { t } from "./i18n";
import { icon } from "./icons";
import type { Stage } from "./input";
import type { Mark } from "./review";
import { LOW_TIME_MS } from "./sound";
import type { Color } from "@protocol";

// Both seats: the engine's at the top, yours at the bottom, each with its clock when timed.
export function renderSeats(top: HTMLElement, bottom: HTMLElement, g: ComputerGame): void {
  const engineSide: Color = g.you === "white" ? "black" : "white";
  renderSeat(top, g, engineSide, t("computer.seat", { level: t(`computer.level.short.${g.level}`) }));
  renderSeat(bottom, g, g.you, t("computer.you"));
}

function renderSeat(el: HTMLElement, g: ComputerGame, c: Color, who: string): void {
  const ms = g.remaining(c);
  const running = !g.over && g.board.toMove === c;
  replaceChildren(el, h("span", { class: `token ${c}` }, icon("queen")), h("span", { class: "name" }, who),
    ms !== null ? h("span", { class: `clock${running ? " running" : ""}${ms < LOW_TIME_MS && !g.over ? " low" : ""}`, id: `computer-clock-${c}` }, formatClock(ms)) : null);
  el.classList.toggle("to-move", running);
}

// What the screen is waiting for, in a line.
export interface ComputerStatus {
  problem: boolean; // an error is shown instead
  loading: boolean; // the engine is loading
  premove: string | null; // the premove waiting, as the panel writes it
  premoving: boolean; // a move entered now is a premove
  stage: Stage; // of the move being entered
  thinking: boolean;
}

export function statusText(g: ComputerGame, s: ComputerStatus): string {
  if (s.problem) return "";
  if (g.over) return t("game.status.over");
  if (s.loading) return t("computer.loading");
  if (s.premove) return t("computer.thinking_premove", { premove: s.premove });
  if (s.premoving && s.stage === "destination") return t("game.status.premove_destination");
  if (s.premoving && s.stage === "arrow") return t("game.status.premove_arrow");
  if (s.thinking) return t("computer.thinking");
  if (!g.yourTurn) return "";
  return s.stage === "arrow" ? t("game.status.your_move_arrow") : s.stage === "destination" ? t("game.status.your_move_destination") : t("game.status.your_move_queen");
}

// The result's title and why, in the player's words ("You lost", "Your time ran out").
export function resultWords(g: ComputerGame): { title: string; why: string } {
  const loser = g.winner === "white" ? "black" : "white";
  const why = g.resigned ? t("computer.why.resigned") : g.flagged ? (loser === g.you ? t("computer.why.your_time") : t("computer.why.its_time")) :
    t(loser === g.you ? "computer.why.you_no_moves" : "computer.why.it_no_moves", { side: sideName(loser) });
  return { title: g.winner === g.you ? t("result.you_won") : t("result.you_lost"), why };
}

// The moves two to a row; after a review, its marks: ? a mistake, ?? a blunder.
export function renderMoves(el: HTMLElement, g: ComputerGame, markOf: (ply: number) => Mark | null): void {
  const cell = (k: number) => {
    if (k >= g.moves.length) return null;
    const mark = g.over ? markOf(k + 1) : null;
    return h("span", { class: `mv${mark ? ` ${mark}` : ""}`, "data-ply": k + 1 }, g.moves[k], mark === "blunder" ? "??" : mark === "mistake" ? "?" : "");
  };
  const items: HTMLElement[] = [];
  for (let i = 0; i < g.moves.length; i += 2) items.push(h("li", {}, cell(i), cell(i + 1)));
  replaceChildren(el, ...items);
  el.scrollTop = el.scrollHeight;
}
