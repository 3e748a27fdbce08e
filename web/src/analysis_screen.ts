// The analysis board (#/analysis): any position, from a game, from a pasted position text or move
// list, or set up by hand, with the engine running in this page on it. The engine's evaluation
// as a bar, its three best moves with scores (multi-PV), its best line as arrows on the board,
// the territory map, and moves played on the board kept as a tree of variations to go back and
// forth in. Open to anyone; nothing is sent to the server. The tree is kept in the browser.
import { drawLineArrows, editorView, loadForm, renderTree, type EditorTool } from "./analysis_board_view";
import { keepAnalysis, keptSwitches, keptTree } from "./analysis_keep";
import { VariationTree, readAnalysisInput } from "./analysis_tree";
import { scoreText } from "./analysis_view";
import { BoardView } from "./board_view";
import { h, replaceChildren, svg } from "./dom";
import { type Analysis, type BrowserEngine, type EngineInfo, engineUnavailable } from "./engine";
import { rulesName, sideName } from "./game";
import { t } from "./i18n";
import { type IconName, icon } from "./icons";
import { MoveInput } from "./input";
import { type Board, Cell, type Move, type Square, parseMove, positionProblem, positionText, replay } from "./rules";
import { territoryMap } from "./territory";
import { BUILTIN_VARIANTS, type Color } from "@protocol";

const LINES = 3; // best moves shown

// White's share of the evaluation bar, 0 to 1, from a score for the side to move: half at even,
// most of the bar at ten squares ahead, all of it for a proven result.
export function whiteShare(info: EngineInfo, toMove: Color): number {
  const sign = toMove === "white" ? 1 : -1;
  if (info.score.kind !== "value") return (info.score.kind === "win" ? sign : -sign) > 0 ? 1 : 0;
  const squares = Math.max(-100, Math.min(100, (sign * info.score.value) / 100));
  return 0.5 + 0.5 * Math.tanh(squares / 8);
}

export class AnalysisScreen {
  readonly el = h("div", { class: "game analysis-board", id: "analysis-board" });
  private tree: VariationTree;
  private flipped = false;
  private territory = false;
  private engineOn = true;
  private editing: Board | null = null; // the board being set up, while the editor is open
  private tool: EditorTool = "white";
  private running: Analysis | null = null;
  private lines: EngineInfo[] = []; // this depth's lines, best first
  private searched = ""; // the position the lines are about
  private problem = "";
  private readonly input = new MoveInput();
  private readonly boardView = new BoardView(this.input, (m) => this.play(m), () => undefined);
  private readonly arrows = svg("svg", { class: "pv-arrows", "aria-hidden": "true" }) as SVGSVGElement;
  private readonly parts = {
    bar: h("div", { class: "eval-bar", id: "eval-bar", role: "meter", "aria-label": t("analysis.evaluation") }, h("div", { class: "eval-white" })),
    status: h("div", { class: "status", id: "analysis-status", "aria-live": "polite" }),
    lines: h("ol", { class: "engine-lines", id: "engine-lines" }),
    moves: h("div", { class: "tree", id: "analysis-tree" }),
    nav: h("div", { class: "replay-nav" }),
    position: h("input", { id: "analysis-position", readonly: true, "aria-label": t("analysis.position_text") }),
    paste: h("textarea", { id: "analysis-paste", rows: 3, placeholder: t("analysis.paste.placeholder") }),
    rules: h("select", { id: "analysis-rules" }, ...BUILTIN_VARIANTS.map((v) => h("option", { value: v.name }, rulesName(v.name)))),
    pasteError: h("div", { class: "error", id: "analysis-paste-error", role: "alert" }),
    side: h("div", { class: "panel-body" }),
  };

  constructor(private readonly pageEngine: () => BrowserEngine) {
    this.tree = keptTree() ?? new VariationTree(replay(BUILTIN_VARIANTS[0], []).board);
    const switches = keptSwitches();
    this.engineOn = switches.engine;
    this.territory = switches.territory;
    this.boardView.onSquare = (s) => this.edit(s);
    this.boardView.beforeBack = () => {
      if (this.editing || this.input.stage !== "queen") return false;
      this.step(() => this.tree.back());
      return true;
    };
    document.addEventListener("keydown", (e) => this.key(e));
    replaceChildren(this.el,
      h("div", { class: "board-col" },
        h("div", { class: "board-row" }, this.parts.bar, h("div", { class: "board-wrap" }, this.boardView.el, this.arrows)),
        this.parts.nav),
      h("aside", { class: "panel card" }, h("h1", { class: "panel-title" }, t("home.analysis_board")), this.parts.side));
  }

  // Opens the screen on `input` (a position text with moves, or a move list) at `ply` of it, or
  // on what was there before when `input` is null.
  open(input: string | null, ply?: number): void {
    if (input !== null) {
      const read = readAnalysisInput(input, BUILTIN_VARIANTS[0]);
      if ("error" in read) {
        this.problem = t("analysis.link_unreadable", { error: read.error });
      } else {
        this.tree = read.tree;
        this.problem = "";
        if (ply !== undefined) {
          this.tree.toStart();
          for (let i = 0; i < ply && this.tree.forward(); ++i);
        }
      }
      this.editing = null;
    }
    this.changed();
  }

  // The screen is left: the engine stops.
  hide(): void {
    this.stopEngine();
  }

  private get showing(): boolean {
    return this.el.isConnected;
  }

  // ---- moves and the tree ----

  private play(m: Move): void {
    if (this.tree.play(m)) this.changed();
    else this.render();
  }

  private step(go: () => unknown): void {
    go();
    this.changed();
  }

  private key(e: KeyboardEvent): void {
    if (!this.showing || this.editing || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    const actions: Record<string, () => unknown> = {
      ArrowLeft: () => this.tree.back(),
      ArrowRight: () => this.tree.forward(),
      Home: () => this.tree.toStart(),
      End: () => this.tree.toEnd(),
    };
    const act = actions[e.key];
    if (!act) return;
    e.preventDefault();
    this.step(act);
  }

  // After every change of position: kept, searched again, shown.
  private changed(): void {
    this.save();
    this.search();
    this.render();
  }

  // ---- the engine ----

  private stopEngine(): void {
    this.running?.stop();
    this.running = null;
  }

  private search(): void {
    this.stopEngine();
    const board = this.editing ?? this.tree.board();
    const position = positionText(board);
    this.lines = [];
    this.searched = position;
    if (!this.engineOn || this.editing || !board.hasMove(board.toMove) || engineUnavailable() || !this.showing) return;
    const running = this.pageEngine().analyse(position, (info) => {
      if (this.running !== running) return;
      if (info.multipv === 1 || this.lines.length === 0 || info.depth !== this.lines[0].depth) this.lines = this.lines.filter((l) => l.depth === info.depth && l.multipv < info.multipv);
      this.lines[info.multipv - 1] = info;
      this.renderEngine();
    }, LINES);
    this.running = running;
    running.done.catch((reason: Error) => {
      if (this.running !== running) return;
      console.error("engine failed:", reason);
      this.problem = t("analysis.engine_failed", { error: reason.message });
      this.render();
    });
  }

  // ---- the editor ----

  private openEditor(): void {
    this.stopEngine();
    this.editing = this.tree.board();
    this.render();
  }

  // A press on the editor's board: the chosen piece there, or the square emptied when it holds
  // that piece already.
  private edit(s: Square): boolean {
    const b = this.editing;
    if (!b) return false;
    const cell = { white: Cell.White, black: Cell.Black, arrow: Cell.Arrow, empty: Cell.Empty }[this.tool];
    b.cells[s] = b.cells[s] === cell ? Cell.Empty : cell;
    this.render();
    return true;
  }

  private editorDone(): void {
    const b = this.editing!;
    const problem = positionProblem(b);
    if (problem) {
      this.problem = t("analysis.position_problem", { error: problem });
      return this.render();
    }
    this.problem = "";
    this.tree = new VariationTree(b.clone());
    this.editing = null;
    this.changed();
  }

  private save(): void {
    keepAnalysis(this.tree, { engine: this.engineOn, territory: this.territory });
  }

  // ---- the screen ----

  private render(): void {
    const board = this.editing ?? this.tree.board();
    const last = this.editing ? null : this.tree.current.move;
    this.input.reset(board, !this.editing);
    this.boardView.show({ board, lastMove: last, flipped: this.flipped, territory: this.territory ? territoryMap(board) : null });
    this.el.classList.toggle("editing", this.editing !== null);
    this.renderNav();
    this.renderEngine();
    const p = this.parts;
    if (this.editing) {
      const edit = (b: Board) => {
        this.editing = b;
        this.render();
      };
      return replaceChildren(p.side, ...editorView(this.editing, this.tool, this.problem, {
        tool: (value) => (this.tool = value),
        board: edit,
        done: () => this.editorDone(),
        cancel: () => {
          this.editing = null;
          this.problem = "";
          this.changed();
        },
      }));
    }
    p.position.value = positionText(board);
    const engineSwitch = h("input", { type: "checkbox", id: "analysis-engine", checked: this.engineOn });
    engineSwitch.addEventListener("change", () => {
      this.engineOn = engineSwitch.checked;
      this.changed();
    });
    const territorySwitch = h("input", { type: "checkbox", id: "analysis-territory", checked: this.territory });
    territorySwitch.addEventListener("change", () => {
      this.territory = territorySwitch.checked;
      this.save();
      this.render();
    });
    const form = loadForm(p, (tree) => {
      this.tree = tree;
      this.problem = "";
      this.changed();
    });
    const copy = h("button", { id: "analysis-copy", type: "button", onclick: () => this.copy(p.position.value) }, t("common.copy"));
    replaceChildren(p.side,
      this.problem ? h("div", { class: "error", id: "analysis-problem", role: "alert" }, this.problem) : "",
      h("div", { class: "switches" },
        h("label", { class: "check" }, engineSwitch, t("analysis.engine")),
        h("label", { class: "check" }, territorySwitch, t("game.territory"))),
      p.status, p.lines,
      h("h2", {}, t("game.moves")), p.moves,
      h("h2", {}, t("analysis.position")),
      h("div", { class: "position-row" }, p.position, copy),
      h("div", { class: "actions" },
        h("button", { id: "analysis-edit", type: "button", onclick: () => this.openEditor() }, t("analysis.set_up")),
        h("button", { id: "analysis-flip", type: "button", onclick: () => { this.flipped = !this.flipped; this.render(); } }, t("game.flip"))),
      h("h2", {}, t("analysis.paste")), form);
    renderTree(p.moves, this.tree, (go) => this.step(go));
  }

  private copy(text: string): void {
    void navigator.clipboard?.writeText(text).then(
      () => replaceChildren(this.parts.status, t("analysis.copied")),
      () => this.parts.position.select(),
    );
  }

  private renderNav(): void {
    const tree = this.tree;
    const button = (id: string, label: IconName, title: string, go: () => unknown, enabled: boolean) =>
      h("button", { id, title, "aria-label": title, disabled: !enabled || this.editing !== null, onclick: () => this.step(go) }, icon(label));
    const atStart = tree.current === tree.root, atEnd = tree.current.children.length === 0;
    replaceChildren(this.parts.nav,
      button("analysis-first", "first", t("analysis.nav.first"), () => tree.toStart(), !atStart),
      button("analysis-back", "back", t("analysis.nav.back"), () => tree.back(), !atStart),
      button("analysis-forward", "forward", t("analysis.nav.forward"), () => tree.forward(), !atEnd),
      button("analysis-last", "last", t("analysis.nav.last"), () => tree.toEnd(), !atEnd));
  }

  // The lines, the status, the bar and the arrows, from the engine's latest report.
  private renderEngine(): void {
    const board = this.editing ?? this.tree.board();
    const p = this.parts;
    const best = this.lines[0];
    const white = p.bar.firstElementChild as HTMLElement;
    const share = best && this.searched === positionText(board) ? whiteShare(best, board.toMove) : 0.5;
    white.style.height = `${(share * 100).toFixed(1)}%`;
    p.bar.setAttribute("aria-valuenow", share.toFixed(2));
    p.bar.dataset.share = share.toFixed(3);
    p.bar.classList.toggle("flipped", this.flipped);
    replaceChildren(this.arrows);
    const unavailable = engineUnavailable();
    p.lines.dataset.depth = best ? String(best.depth) : "0";
    p.lines.dataset.position = this.searched;
    if (this.editing) {
      replaceChildren(p.status, t("analysis.status.editing"));
      return replaceChildren(p.lines);
    }
    if (!board.hasMove(board.toMove)) {
      replaceChildren(p.status, h("strong", {}, t("analysis.status.lost", { side: sideName(board.toMove) })));
      return replaceChildren(p.lines);
    }
    if (!this.engineOn) {
      replaceChildren(p.status, h("span", { class: "muted" }, t("analysis.status.engine_off", { side: sideName(board.toMove) })));
      return replaceChildren(p.lines);
    }
    if (unavailable) {
      replaceChildren(p.status, h("span", { class: "error" }, unavailable));
      return replaceChildren(p.lines);
    }
    if (!best) {
      replaceChildren(p.status, h("span", { class: "muted" }, t("analysis.status.thinking", { side: sideName(board.toMove) })));
      return replaceChildren(p.lines);
    }
    replaceChildren(p.status, h("strong", { id: "analysis-score" }, scoreText(best, board.toMove)), h("span", { class: "muted" }, ` · ${t("analysis.depth", { depth: best.depth })}`));
    replaceChildren(p.lines, ...this.lines.filter(Boolean).map((info) => {
      const first = info.pv[0] ?? "";
      const li = h("li", { class: "engine-line", "data-move": first },
        h("button", { class: "line-move", type: "button", title: t("analysis.play_line_move"), onclick: () => {
          const m = parseMove(first, board.size);
          if (m) this.play(m);
        } }, first),
        h("span", { class: "line-score" }, scoreText(info, board.toMove)),
        h("span", { class: "line-rest muted" }, info.pv.slice(1, 6).join(" ")));
      return li;
    }));
    drawLineArrows(this.arrows, board, best.pv, this.flipped);
  }
}
