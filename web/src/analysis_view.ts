// The engine's view of a position, for any screen with a board: a switch, and while it is on the
// engine searches the position shown (in the page, engine.ts) and says, at each depth, who stands
// better by how much and its best line. follow() is called with every position the screen shows;
// the search of the previous one is stopped.
import { h, replaceChildren } from "./dom";
import { BrowserEngine, EngineInfo, engineUnavailable, type Analysis } from "./engine";
import { Board, positionText } from "./rules";
import { sideName } from "./game";
import { formatNumber, t } from "./i18n";
import type { Color } from "@protocol";

const SWITCH_KEY = "amazons.analysis";

// "White +1.3" (territory in squares, for the side ahead), "White wins in 3", "Even".
export function scoreText(info: EngineInfo, toMove: Color): string {
  const them: Color = toMove === "white" ? "black" : "white";
  if (info.score.kind !== "value") {
    const winner = info.score.kind === "win" ? toMove : them;
    const moves = Math.ceil(info.score.plies / 2);
    return moves > 0 ? t("analysis.score.wins_in", { side: sideName(winner), moves }) : t("result.side_wins", { side: sideName(winner) });
  }
  const squares = Math.round(info.score.value / 10) / 10;
  if (squares === 0) return t("analysis.score.even");
  return t("analysis.score.ahead", { side: sideName(squares > 0 ? toMove : them), squares: formatNumber(Math.abs(squares), { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
}

export class AnalysisView {
  readonly el = h("div", { class: "analysis", id: "analysis" });
  private readonly toggle = h("input", { type: "checkbox", id: "analysis-switch" });
  private readonly line = h("div", { class: "analysis-line", id: "analysis-line", "aria-live": "polite" });
  private board: Board | null = null;
  private running: Analysis | null = null;

  // `engine` gives the page's engine, started on first use.
  constructor(private readonly engine: () => BrowserEngine | null) {
    this.toggle.checked = localStorage.getItem(SWITCH_KEY) === "1";
    this.toggle.addEventListener("change", () => {
      localStorage.setItem(SWITCH_KEY, this.toggle.checked ? "1" : "0");
      this.restart();
    });
    replaceChildren(this.el, h("label", { class: "check" }, this.toggle, t("analysis.switch")), this.line);
  }

  // The position now shown (null: none; the search stops).
  follow(board: Board | null): void {
    const same = board && this.board && positionText(board) === positionText(this.board);
    this.board = board ? board.clone() : null;
    if (!same || !this.running) this.restart();
  }

  // Stops the search, as when the screen is left.
  stop(): void {
    this.running?.stop();
    this.running = null;
  }

  private restart(): void {
    this.stop();
    const board = this.board;
    this.line.hidden = !this.toggle.checked;
    if (!this.toggle.checked || !board) return replaceChildren(this.line);
    const unavailable = engineUnavailable();
    if (unavailable) return replaceChildren(this.line, h("span", { class: "error" }, unavailable));
    if (!board.hasMove(board.toMove)) return replaceChildren(this.line, `${sideName(board.toMove)} has no move: the game is over.`);
    const engine = this.engine();
    if (!engine) return;
    replaceChildren(this.line, h("span", { class: "muted" }, t("analysis.thinking")));
    const analysis = engine.analyse(positionText(board), (info) => {
      if (this.running !== analysis) return;
      const best = info.pv.slice(0, 4).join(" ");
      replaceChildren(this.line, h("strong", { id: "analysis-score" }, scoreText(info, board.toMove)),
        h("span", { class: "muted" }, ` · depth ${info.depth}`), h("div", { class: "pv", id: "analysis-pv" }, best));
      this.line.dataset.depth = String(info.depth);
      this.line.dataset.best = info.pv[0] ?? "";
    });
    this.running = analysis;
    this.line.dataset.depth = "0";
    this.line.dataset.position = positionText(board);
    analysis.done.catch((reason: Error) => {
      if (this.running === analysis) replaceChildren(this.line, h("span", { class: "error" }, t("analysis.engine_failed", { error: reason.message })));
    });
  }
}
