// The analysis board (#/analysis): any position, from a game, from a pasted position text or move
// list, or set up by hand, with the engine running in this page on it. The engine's evaluation
// as a bar, its three best moves with scores (multi-PV), its best line as arrows on the board,
// the territory map, and moves played on the board kept as a tree of variations to go back and
// forth in. Open to anyone; nothing is sent to the server. The tree is kept in the browser.
import { BoardView } from "./board_view";
import { h, replaceChildren, svg } from "./dom";
import { type IconName, icon } from "./icons";
import { type BrowserEngine, type EngineInfo, type Analysis, engineUnavailable } from "./engine";
import { scoreText } from "./analysis_view";
import { VariationTree, type TreeNode, readAnalysisInput } from "./analysis_tree";
import { rulesName, sideName } from "./game";
import { formatNumber, t } from "./i18n";
import { MoveInput } from "./input";
import { Board, Cell, type Move, type Square, parseMove, positionProblem, positionText, replay } from "./rules";
import { territoryMap } from "./territory";
import { BUILTIN_VARIANTS, type Color } from "@protocol";

const KEPT_KEY = "amazons.analysis.board"; // the tree, resumed when the screen is opened again
const SETTINGS_KEY = "amazons.analysis.settings";
const LINES = 3; // best moves shown

type Tool = "white" | "black" | "arrow" | "empty";

interface KeptNode {
  m: string;
  c: KeptNode[];
}
interface Kept {
  start: string;
  tree: KeptNode[];
  path: number[]; // child indices from the root to the current node
}

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
  private tool: Tool = "white";
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
    this.tree = this.restore() ?? new VariationTree(replay(BUILTIN_VARIANTS[0], []).board);
    try {
      const s = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "{}") as { engine?: boolean; territory?: boolean };
      this.engineOn = s.engine !== false;
      this.territory = s.territory === true;
    } catch {
      /* defaults */
    }
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

  // ---- keeping the tree ----

  private save(): void {
    const keep = (n: TreeNode): KeptNode => ({ m: n.text, c: n.children.map(keep) });
    const path: number[] = [];
    for (const n of this.tree.path()) path.push(n.parent!.children.indexOf(n));
    const kept: Kept = { start: positionText(this.tree.start), tree: this.tree.root.children.map(keep), path };
    try {
      localStorage.setItem(KEPT_KEY, JSON.stringify(kept));
      localStorage.setItem(SETTINGS_KEY, JSON.stringify({ engine: this.engineOn, territory: this.territory }));
    } catch {
      /* a full storage loses only the resume */
    }
  }

  private restore(): VariationTree | null {
    try {
      const kept = JSON.parse(localStorage.getItem(KEPT_KEY) ?? "null") as Kept | null;
      if (!kept || typeof kept.start !== "string") return null;
      const read = readAnalysisInput(kept.start, BUILTIN_VARIANTS[0]);
      if ("error" in read) return null;
      const tree = read.tree;
      const grow = (nodes: KeptNode[]) => {
        for (const n of nodes) {
          const m = parseMove(n.m, tree.start.size);
          if (!m || !tree.play(m)) continue;
          grow(n.c ?? []);
          tree.back();
        }
      };
      grow(kept.tree ?? []);
      for (const i of kept.path ?? []) {
        const next = tree.current.children[i];
        if (!next) break;
        tree.current = next;
      }
      return tree;
    } catch {
      return null;
    }
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
    if (this.editing) return this.renderEditor();
    const p = this.parts;
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
    const load = h("button", { id: "analysis-load", type: "submit" }, t("analysis.load"));
    // A record file is read into the box and loaded as if pasted.
    const file = h("input", { type: "file", id: "analysis-file", accept: ".json,.txt,.sgf,text/plain,application/json" });
    const form = h("form", { class: "analysis-paste" }, p.paste, h("label", {}, t("analysis.moves_from"), p.rules), load,
      h("label", { class: "file" }, t("analysis.open_file"), file), p.pasteError);
    file.addEventListener("change", () => {
      const chosen = file.files?.[0];
      if (!chosen) return;
      if (chosen.size > 1_000_000) {
        replaceChildren(p.pasteError, t("analysis.file_too_big", { file: chosen.name, kb: formatNumber(Math.round(chosen.size / 1000)) }));
        return;
      }
      chosen.text().then((text) => {
        p.paste.value = text;
        form.requestSubmit();
      }, () => replaceChildren(p.pasteError, t("analysis.file_unreadable", { file: chosen.name })));
    });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const variant = BUILTIN_VARIANTS.find((v) => v.name === p.rules.value) ?? BUILTIN_VARIANTS[0];
      const read = readAnalysisInput(p.paste.value, variant);
      if ("error" in read) {
        replaceChildren(p.pasteError, read.error);
        return;
      }
      replaceChildren(p.pasteError);
      this.tree = read.tree;
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
    this.renderTree();
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
    this.drawArrows(board, best.pv);
  }

  // The best line's first two moves as arrows: the queen's path solid, the shot dashed; the reply
  // fainter.
  private drawArrows(board: Board, pv: readonly string[]): void {
    const n = board.size;
    this.arrows.setAttribute("viewBox", `0 0 ${n} ${n}`);
    const defs = svg("defs", {});
    for (const [id, colour] of [["pv-head-0", "#2f8a4f"], ["pv-head-1", "#b5473a"]]) {
      const marker = svg("marker", { id, viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse" });
      marker.appendChild(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }));
      defs.appendChild(marker);
    }
    this.arrows.appendChild(defs);
    const centre = (s: Square): [number, number] => {
      const file = s % n, rank = Math.floor(s / n);
      const col = this.flipped ? n - 1 - file : file, row = this.flipped ? rank : n - 1 - rank;
      return [col + 0.5, row + 0.5];
    };
    const after = board.clone();
    pv.slice(0, 2).forEach((text, i) => {
      const m = parseMove(text, n);
      if (!m || !after.play(m)) return;
      const colour = i === 0 ? "#2f8a4f" : "#b5473a";
      const opacity = i === 0 ? 0.85 : 0.55;
      const line = (a: Square, b: Square, dashed: boolean, cls: string) => {
        const [x1, y1] = centre(a), [x2, y2] = centre(b);
        const len = Math.hypot(x2 - x1, y2 - y1);
        const shorten = 0.3 / len;
        this.arrows.appendChild(svg("line", {
          class: cls, x1, y1, x2: x2 - (x2 - x1) * shorten, y2: y2 - (y2 - y1) * shorten,
          stroke: colour, "stroke-width": 0.14, "stroke-opacity": opacity, "stroke-linecap": "round",
          "stroke-dasharray": dashed ? "0.2 0.15" : "none", "marker-end": `url(#pv-head-${i})`,
          "data-from": text.split("-")[0], "data-move": text,
        }));
      };
      line(m.from, m.to, false, `pv-queen pv-${i}`);
      if (m.arrow !== m.to) line(m.to, m.arrow, true, `pv-shot pv-${i}`);
    });
  }

  // The tree as a move list: the main line, each variation in brackets after the move it
  // replaces; each move jumps there when clicked.
  private renderTree(): void {
    const tree = this.tree;
    const startPly = tree.start.toMove === "white" ? 0 : 1;
    const moveEl = (n: TreeNode, numbered: boolean) => {
      const index = startPly + n.ply - 1;
      const number = index % 2 === 0 ? `${Math.floor(index / 2) + 1}.` : numbered ? `${Math.floor(index / 2) + 1}...` : "";
      return h("button", {
        class: `mv${n === tree.current ? " current" : ""}`, type: "button", "data-ply": n.ply, "data-move": n.text,
        "aria-current": n === tree.current ? "true" : undefined,
        onclick: () => this.step(() => (tree.current = n)),
      }, number ? h("span", { class: "num" }, number) : "", n.text);
    };
    const line = (from: TreeNode, numbered: boolean): HTMLElement[] => {
      const out: HTMLElement[] = [];
      let n = from;
      let number = numbered;
      while (n.children.length > 0) {
        const [main, ...others] = n.children;
        out.push(moveEl(main, number));
        number = false;
        for (const alt of others) {
          out.push(h("span", { class: "variation" }, "(", moveEl(alt, true), ...line(alt, false), ")"));
          number = true;
        }
        n = main;
      }
      return out;
    };
    const moves = line(tree.root, true);
    replaceChildren(this.parts.moves, ...(moves.length ? moves : [h("span", { class: "muted" }, t("analysis.tree.empty"))]));
    const actions: HTMLElement[] = [];
    if (tree.current !== tree.root) {
      actions.push(h("button", { id: "analysis-promote", type: "button", onclick: () => this.step(() => tree.promote()) }, t("analysis.tree.promote")));
      actions.push(h("button", { id: "analysis-delete", type: "button", onclick: () => this.step(() => tree.remove()) }, t("analysis.tree.delete")));
    }
    if (actions.length) this.parts.moves.appendChild(h("div", { class: "tree-actions" }, ...actions));
  }

  private renderEditor(): void {
    const b = this.editing!;
    const tool = (value: Tool, label: string) => {
      const radio = h("input", { type: "radio", name: "analysis-tool", value, id: `tool-${value}`, checked: this.tool === value });
      radio.addEventListener("change", () => (this.tool = value));
      return h("label", { class: "check" }, radio, label);
    };
    const size = h("select", { id: "editor-size" }, ...[6, 7, 8, 9, 10, 11, 12].map((n) => h("option", { value: n, selected: n === b.size }, `${n} x ${n}`)));
    size.addEventListener("change", () => {
      this.editing = new Board(Number(size.value), b.toMove);
      this.render();
    });
    const side = h("select", { id: "editor-side" }, h("option", { value: "white", selected: b.toMove === "white" }, sideName("white")), h("option", { value: "black", selected: b.toMove === "black" }, sideName("black")));
    side.addEventListener("change", () => (b.toMove = side.value as Color));
    const start = h("select", { id: "editor-start" }, h("option", { value: "" }, t("analysis.editor.start_of")), ...BUILTIN_VARIANTS.map((v) => h("option", { value: v.name }, rulesName(v.name))));
    start.addEventListener("change", () => {
      const v = BUILTIN_VARIANTS.find((x) => x.name === start.value);
      if (v) this.editing = replay(v, []).board;
      this.render();
    });
    replaceChildren(this.parts.side,
      h("p", { class: "muted" }, t("analysis.editor.explain")),
      this.problem ? h("div", { class: "error", id: "analysis-problem", role: "alert" }, this.problem) : "",
      h("div", { class: "tools", role: "radiogroup", "aria-label": t("analysis.editor.piece") },
        tool("white", t("analysis.editor.white_queen")), tool("black", t("analysis.editor.black_queen")), tool("arrow", t("analysis.editor.arrow")), tool("empty", t("analysis.editor.empty"))),
      h("label", {}, t("settings.board"), size),
      h("label", {}, t("analysis.editor.to_move"), side),
      h("label", {}, t("analysis.editor.begin_from"), start),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "editor-clear", onclick: () => { this.editing = new Board(b.size, b.toMove); this.render(); } }, t("analysis.editor.clear")),
        h("button", { type: "button", class: "primary", id: "editor-done", onclick: () => this.editorDone() }, t("analysis.editor.done")),
        h("button", { type: "button", id: "editor-cancel", onclick: () => { this.editing = null; this.problem = ""; this.changed(); } }, t("common.cancel"))));
  }
}
