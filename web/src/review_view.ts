// The replay screen's review panel: starts the engine's review of the game (review.ts) with
// progress and a cancel button, then shows an evaluation graph (White's view, a click goes to
// that move) and how many mistakes and blunders each side made. The marks themselves go into the
// replay's move list through markOf().
import type { Color, Variant } from "@protocol";
import { h, replaceChildren } from "./dom";
import type { BrowserEngine } from "./engine";
import { engineUnavailable } from "./engine";
import { sideName } from "./game";
import { Mark, PlyReview, ReviewRun, reviewGame } from "./review";
import { t } from "./i18n";

const GRAPH_SQUARES = 10; // the graph's scale: a lead of this many squares or more fills it
const MOVETIMES = [
  { ms: 200, label: () => t("review.quick") },
  { ms: 1000, label: () => t("review.thorough") },
];

interface Subject {
  game: string;
  variant: Variant;
  moves: readonly string[];
  ply: number;
}

export class ReviewView {
  readonly el = h("div", { class: "review", id: "review" });
  private reviews = new Map<string, PlyReview[]>(); // by game
  private running: { game: string; run: ReviewRun; done: number; total: number } | null = null;
  private problem = "";
  private subject: Subject | null = null;
  private readonly movetime = h("select", { id: "review-movetime", "aria-label": t("review.movetime") }, ...MOVETIMES.map((m) => h("option", { value: String(m.ms) }, m.label())));

  // `engine` gives the page's engine; `changed` re-renders the screen (progress, results);
  // `goTo` shows a ply.
  constructor(private readonly engine: () => BrowserEngine, private readonly changed: () => void,
    private readonly goTo: (ply: number) => void) {}

  // The review of `game`, once made (for an annotated record).
  reviewOf(game: string): readonly PlyReview[] | undefined {
    return this.reviews.get(game);
  }

  markOf(game: string, ply: number): Mark {
    return this.reviews.get(game)?.[ply - 1]?.mark ?? null;
  }

  // Stops a review in progress (the screen is left).
  cancel(): void {
    this.running?.run.cancel();
    this.running = null;
  }

  render(subject: Subject): void {
    this.subject = subject;
    const reviews = this.reviews.get(subject.game);
    const parts: (Node | string)[] = [h("h2", {}, t("review.title"))];
    if (this.running && this.running.game === subject.game) {
      parts.push(h("div", { class: "row" }, h("span", { id: "review-progress" }, t("review.progress", { done: this.running.done, total: this.running.total })),
        h("button", { id: "review-cancel", onclick: () => { this.cancel(); this.changed(); } }, t("common.cancel"))));
    } else if (reviews) {
      parts.push(this.graph(subject, reviews), this.summary(subject.variant, reviews));
    } else if (subject.moves.length > 0) {
      const unavailable = engineUnavailable();
      if (unavailable) parts.push(h("p", { class: "error" }, unavailable));
      else parts.push(h("div", { class: "row" }, this.movetime, h("button", { id: "review-start", onclick: () => this.start() }, t("review.start"))));
    }
    if (this.problem) parts.push(h("p", { class: "error", id: "review-problem" }, this.problem));
    replaceChildren(this.el, ...parts);
  }

  private start(): void {
    const s = this.subject;
    if (!s || this.running) return;
    this.problem = "";
    const run = reviewGame(this.engine(), s.variant, s.moves, Number(this.movetime.value), (done, total) => {
      if (this.running?.run !== run) return;
      this.running.done = done;
      this.running.total = total;
      this.changed();
    });
    this.running = { game: s.game, run, done: 0, total: s.moves.length };
    run.done.then(
      (reviews) => {
        if (this.running?.run === run) this.running = null;
        if (reviews) this.reviews.set(s.game, reviews);
        this.changed();
      },
      (reason: Error) => {
        if (this.running?.run === run) this.running = null;
        this.problem = t("review.failed", { error: reason.message });
        this.changed();
      },
    );
    this.changed();
  }

  // White's lead after each move, clamped to GRAPH_SQUARES; a click goes to the nearest move.
  private graph(s: Subject, reviews: PlyReview[]): SVGSVGElement {
    const ns = "http://www.w3.org/2000/svg";
    const width = 300, height = 80, n = reviews.length;
    const x = (ply: number) => (n === 0 ? 0 : (ply / n) * width);
    const y = (white: number) => height / 2 - (Math.max(-GRAPH_SQUARES, Math.min(GRAPH_SQUARES, white)) / GRAPH_SQUARES) * (height / 2);
    const first: Color = s.variant.first;
    const moverOf = (i: number): Color => (i % 2 === 0 ? first : first === "white" ? "black" : "white");
    const white = (i: number, v: number) => (moverOf(i) === "white" ? v : -v);
    const points = [`${x(0)},${y(n > 0 ? white(0, reviews[0].before) : 0)}`];
    reviews.forEach((r, i) => points.push(`${x(i + 1)},${y(white(i, r.after))}`));
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("class", "review-graph");
    svg.setAttribute("id", "review-graph");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("review.graph"));
    const add = (tag: string, attrs: Record<string, string>) => {
      const el = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      svg.appendChild(el);
      return el;
    };
    add("line", { x1: "0", y1: String(height / 2), x2: String(width), y2: String(height / 2), class: "axis" });
    add("polyline", { points: points.join(" "), class: "curve" });
    reviews.forEach((r, i) => {
      if (r.mark) add("circle", { cx: String(x(i + 1)), cy: String(y(white(i, r.after))), r: "3", class: `mark ${r.mark}` });
    });
    if (s.ply > 0) add("line", { x1: String(x(s.ply)), y1: "0", x2: String(x(s.ply)), y2: String(height), class: "current" });
    svg.addEventListener("click", (e) => {
      const box = svg.getBoundingClientRect();
      this.goTo(Math.round(((e.clientX - box.left) / box.width) * n));
    });
    return svg;
  }

  private summary(variant: Variant, reviews: PlyReview[]): HTMLElement {
    const count = (c: Color, mark: Mark) =>
      reviews.filter((r, i) => r.mark === mark && (i % 2 === 0) === (c === variant.first)).length;
    const line = (c: Color) => {
      const m = count(c, "mistake"), b = count(c, "blunder");
      return h("div", { id: `review-${c}` }, `${sideName(c)}: ${m} ${m === 1 ? "mistake" : "mistakes"}, ${b} ${b === 1 ? "blunder" : "blunders"}`);
    };
    return h("div", { class: "review-summary" }, line("white"), line("black"));
  }
}
