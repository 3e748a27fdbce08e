// The replay of a finished game (#/replay/ID): the server's record stepped through (buttons, the
// arrow keys, a click on a move), the engine's analysis of the position shown and its review of
// the whole game (analysis_view.ts, review_view.ts), the record exported as the server wrote it
// or with the review's annotations.
import type { GameRecordJson } from "@protocol";
import { analysisLink } from "./analysis_tree";
import { AnalysisView } from "./analysis_view";
import { BoardView } from "./board_view";
import { download, h } from "./dom";
import { type IconName, icon } from "./icons";
import type { BrowserEngine } from "./engine";
import { resultReason, resultTitle, sideName } from "./game";
import { MoveInput } from "./input";
import { annotatedJson, fromServerRecord, recordSgf, recordText } from "./record";
import { ReviewView } from "./review_view";
import { replay } from "./rules";
import { territoryMap } from "./territory";
import { t } from "./i18n";

// What the replay needs of the page.
export interface ReplayHost {
  pageEngine(): BrowserEngine;
  show(screen: HTMLElement): void; // the replay is the screen shown
  exportRecord(game: string): void; // the server's text record, downloaded
  notify(text: string, error?: boolean): void;
  territory(): boolean; // the territory view is on
}

interface Replayed {
  game: string;
  record: GameRecordJson;
  moves: string[];
  ply: number;
}

export class ReplayScreen {
  private replayed: Replayed | null = null;
  private shownGame: string | null = null; // the game the screen is for (the route's)
  private readonly analysis: AnalysisView;
  private readonly review: ReviewView;

  constructor(private readonly host: ReplayHost) {
    this.analysis = new AnalysisView(() => host.pageEngine());
    this.review = new ReviewView(() => host.pageEngine(), () => this.render(this.shownGame), (ply) => {
      if (this.replayed) this.step(ply - this.replayed.ply);
    });
  }

  // A new replay was asked for: the last one's record is dropped.
  asked(): void {
    this.replayed = null;
  }

  // The screen was left: the engine stops.
  leave(): void {
    this.analysis.stop();
    this.review.cancel();
  }

  // The server's JSON record of `game`; false when it is not one this page can replay.
  received(game: string, record: unknown): boolean {
    const rec = record as GameRecordJson;
    if (typeof rec !== "object" || rec === null || !Array.isArray(rec.moves) || !rec.rules) {
      this.host.notify(t("replay.not_a_record", { game }), true);
      return false;
    }
    const moves = rec.moves.map((x) => (typeof x === "string" ? x : x.move));
    try {
      const r = replay(rec.rules, moves);
      if (r.error) this.host.notify(t("replay.does_not_replay", { game, error: r.error }), true);
      this.replayed = { game, record: rec, moves: moves.slice(0, r.played.length), ply: 0 };
      return true;
    } catch (e) {
      this.host.notify(t("replay.unknown_rules", { game, error: String(e) }), true);
      return false;
    }
  }

  step(d: number | "start" | "end"): void {
    const r = this.replayed;
    if (!r) return;
    r.ply = d === "start" ? 0 : d === "end" ? r.moves.length : Math.max(0, Math.min(r.moves.length, r.ply + d));
    this.render(this.shownGame);
  }

  render(game: string | null): void {
    this.shownGame = game;
    const r = this.replayed;
    if (!r || r.game !== game) {
      this.host.show(h("section", { class: "card" }, h("p", { class: "muted" }, t("replay.asking"))));
      return;
    }
    const { board, played } = replay(r.record.rules, r.moves.slice(0, r.ply));
    const view = new BoardView(new MoveInput(), () => undefined);
    view.show({ board, lastMove: played[played.length - 1] ?? null, flipped: false, territory: this.host.territory() ? territoryMap(board) : null });
    this.analysis.follow(board);
    this.review.render({ game: r.game, variant: r.record.rules, moves: r.moves, ply: r.ply });
    const rec = r.record;
    const result = rec.result ? t("replay.result", { title: resultTitle({ winner: rec.result.winner ?? undefined }), reason: resultReason({ winner: rec.result.winner ?? undefined, reason: rec.result.reason }) }) : t("replay.unfinished");
    const step = (id: string, label: IconName, name: string, d: number | "start" | "end") => h("button", { id, "aria-label": name, title: name, onclick: () => this.step(d) }, icon(label));
    const rows: HTMLElement[] = [];
    for (let i = 0; i < r.moves.length; i += 2) {
      const cell = (k: number) => {
        if (k >= r.moves.length) return null;
        const mark = this.review.markOf(r.game, k + 1);
        return h("span", { class: `mv${k + 1 === r.ply ? " current" : ""}${mark ? ` ${mark}` : ""}`, "data-ply": k + 1, onclick: () => { r.ply = k + 1; this.render(this.shownGame); } },
          r.moves[k], mark === "blunder" ? "??" : mark === "mistake" ? "?" : "");
      };
      rows.push(h("li", {}, cell(i), cell(i + 1)));
    }
    this.host.show(h("div", { class: "game" },
      h("div", { class: "board-col" }, h("div", { class: "seat top" }, h("span", { class: "token black" }, icon("queen")), h("span", { class: "name" }, rec.black?.name ?? sideName("black"))), view.el,
        h("div", { class: "seat bottom" }, h("span", { class: "token white" }, icon("queen")), h("span", { class: "name" }, rec.white?.name ?? sideName("white")))),
      h("aside", { class: "panel card" },
        h("h1", { class: "panel-title" }, t("replay.title", { game: r.game })),
        h("div", { class: "status", id: "replay-ply" }, t("replay.ply", { ply: r.ply, plies: r.moves.length })),
        h("div", { class: "result" }, result),
        h("div", { class: "actions" }, step("first", "first", t("replay.first"), "start"), step("prev", "back", t("replay.back"), -1), step("next", "forward", t("replay.forward"), 1), step("last", "last", t("replay.last"), "end")),
        h("div", { class: "actions" }, h("button", { id: "export", onclick: () => this.host.exportRecord(r.game) }, t("replay.export")),
          h("a", { class: "button", id: "replay-analyse", href: analysisLink(r.record.rules, r.moves, r.ply) }, t("home.analysis_board")),
          h("a", { class: "button quiet", href: "#/archive" }, t("common.back"))),
        this.analysis.el, this.review.el, this.annotatedExport(r.game, rec),
        h("h2", {}, t("game.moves")), h("ol", { class: "moves" }, ...rows))));
  }

  // After a review: the record with its annotations, as JSON (the server's record, each reviewed
  // move with its analysis), text or SGF (annotations as comments).
  private annotatedExport(game: string, rec: GameRecordJson): HTMLElement | null {
    const analysis = this.review.reviewOf(game);
    if (!analysis) return null;
    const name = `amazons-game-${game}-reviewed`;
    return h("div", { class: "actions export" }, t("export.with_review") + " ",
      h("button", { id: "export-reviewed-text", onclick: () => download(`${name}.txt`, recordText(fromServerRecord(rec, analysis))) }, t("export.text")),
      h("button", { id: "export-reviewed-json", onclick: () => download(`${name}.json`, `${JSON.stringify(annotatedJson(rec, analysis), null, 1)}\n`) }, "JSON"),
      h("button", { id: "export-reviewed-sgf", onclick: () => download(`${name}.sgf`, recordSgf(fromServerRecord(rec, analysis))) }, "SGF"));
  }
}
