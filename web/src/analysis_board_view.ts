// The analysis board's views drawn from its state alone: the tree as a move list, the engine's
// best line as arrows over the board, the form that loads a position, and the position editor's
// controls.
import { type VariationTree, type TreeNode, readAnalysisInput } from "./analysis_tree";
import { h, replaceChildren, svg } from "./dom";
import { rulesName, sideName } from "./game";
import { formatNumber, t } from "./i18n";
import { Board, type Square, parseMove, replay } from "./rules";
import { BUILTIN_VARIANTS, type Color } from "@protocol";

// The tree as a move list: the main line, each variation in brackets after the move it replaces;
// each move jumps there when clicked (`go`). Under it, promote and delete for the current move.
export function renderTree(el: HTMLElement, tree: VariationTree, go: (change: () => unknown) => void): void {
  const startPly = tree.start.toMove === "white" ? 0 : 1;
  const moveEl = (n: TreeNode, numbered: boolean) => {
    const index = startPly + n.ply - 1;
    const number = index % 2 === 0 ? `${Math.floor(index / 2) + 1}.` : numbered ? `${Math.floor(index / 2) + 1}...` : "";
    return h("button", {
      class: `mv${n === tree.current ? " current" : ""}`, type: "button", "data-ply": n.ply, "data-move": n.text,
      "aria-current": n === tree.current ? "true" : undefined,
      onclick: () => go(() => (tree.current = n)),
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
  replaceChildren(el, ...(moves.length ? moves : [h("span", { class: "muted" }, t("analysis.tree.empty"))]));
  if (tree.current === tree.root) return;
  el.appendChild(h("div", { class: "tree-actions" },
    h("button", { id: "analysis-promote", type: "button", onclick: () => go(() => tree.promote()) }, t("analysis.tree.promote")),
    h("button", { id: "analysis-delete", type: "button", onclick: () => go(() => tree.remove()) }, t("analysis.tree.delete"))));
}

// The best line's first two moves as arrows in `arrows` (over the board): the queen's path solid,
// the shot dashed; the reply fainter.
export function drawLineArrows(arrows: SVGSVGElement, board: Board, pv: readonly string[], flipped: boolean): void {
  const n = board.size;
  arrows.setAttribute("viewBox", `0 0 ${n} ${n}`);
  const defs = svg("defs", {});
  for (const [id, colour] of [["pv-head-0", "#2f8a4f"], ["pv-head-1", "#b5473a"]]) {
    const marker = svg("marker", { id, viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse" });
    marker.appendChild(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }));
    defs.appendChild(marker);
  }
  arrows.appendChild(defs);
  const centre = (s: Square): [number, number] => {
    const file = s % n, rank = Math.floor(s / n);
    const col = flipped ? n - 1 - file : file, row = flipped ? rank : n - 1 - rank;
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
      arrows.appendChild(svg("line", {
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

export type EditorTool = "white" | "black" | "arrow" | "empty";

// What the position editor's controls do.
export interface EditorActions {
  tool(value: EditorTool): void;
  board(b: Board): void; // a new board to edit (another size, a variant's start, cleared)
  done(): void;
  cancel(): void;
}

// The editor's controls for the board `b` being set up: the piece a press puts down, the size,
// the side to move, a variant's start, and done or cancel.
export function editorView(b: Board, current: EditorTool, problem: string, act: EditorActions): HTMLElement[] {
  const tool = (value: EditorTool, label: string) => {
    const radio = h("input", { type: "radio", name: "analysis-tool", value, id: `tool-${value}`, checked: current === value });
    radio.addEventListener("change", () => act.tool(value));
    return h("label", { class: "check" }, radio, label);
  };
  const size = h("select", { id: "editor-size" }, ...[6, 7, 8, 9, 10, 11, 12].map((n) => h("option", { value: n, selected: n === b.size }, `${n} x ${n}`)));
  size.addEventListener("change", () => act.board(new Board(Number(size.value), b.toMove)));
  const side = h("select", { id: "editor-side" }, h("option", { value: "white", selected: b.toMove === "white" }, sideName("white")), h("option", { value: "black", selected: b.toMove === "black" }, sideName("black")));
  side.addEventListener("change", () => (b.toMove = side.value as Color));
  const start = h("select", { id: "editor-start" }, h("option", { value: "" }, t("analysis.editor.start_of")), ...BUILTIN_VARIANTS.map((v) => h("option", { value: v.name }, rulesName(v.name))));
  start.addEventListener("change", () => {
    const v = BUILTIN_VARIANTS.find((x) => x.name === start.value);
    act.board(v ? replay(v, []).board : b);
  });
  return [
    h("p", { class: "muted" }, t("analysis.editor.explain")),
    ...(problem ? [h("div", { class: "error", id: "analysis-problem", role: "alert" }, problem)] : []),
    h("div", { class: "tools", role: "radiogroup", "aria-label": t("analysis.editor.piece") },
      tool("white", t("analysis.editor.white_queen")), tool("black", t("analysis.editor.black_queen")), tool("arrow", t("analysis.editor.arrow")), tool("empty", t("analysis.editor.empty"))),
    h("label", {}, t("settings.board"), size),
    h("label", {}, t("analysis.editor.to_move"), side),
    h("label", {}, t("analysis.editor.begin_from"), start),
    h("div", { class: "actions" },
      h("button", { type: "button", id: "editor-clear", onclick: () => act.board(new Board(b.size, b.toMove)) }, t("analysis.editor.clear")),
      h("button", { type: "button", class: "primary", id: "editor-done", onclick: () => act.done() }, t("analysis.editor.done")),
      h("button", { type: "button", id: "editor-cancel", onclick: () => act.cancel() }, t("common.cancel"))),
  ];
}

// The parts of the screen the load form is made of, kept by the screen between renders so that
// what was pasted stays.
export interface LoadParts {
  paste: HTMLTextAreaElement;
  rules: HTMLSelectElement; // the rules a bare move list is read with
  pasteError: HTMLElement;
}

// A position text, a move list or a record file (read into the box), loaded as a new tree.
export function loadForm(p: LoadParts, load: (tree: VariationTree) => void): HTMLFormElement {
  const button = h("button", { id: "analysis-load", type: "submit" }, t("analysis.load"));
  const file = h("input", { type: "file", id: "analysis-file", accept: ".json,.txt,.sgf,text/plain,application/json" });
  const form = h("form", { class: "analysis-paste" }, p.paste, h("label", {}, t("analysis.moves_from"), p.rules), button,
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
    load(read.tree);
  });
  return form;
}
