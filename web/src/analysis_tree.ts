// The analysis board's moves: a tree of variations from one start position. Playing a move where
// a child already has it goes there; another move opens a variation beside the main line (the
// first child). The board shown is the start with the moves from the root to the current node.
// Pure: no page, no engine (tests/web/analysis_check.ts).
import { Board, Move, formatMove, other, parseMove, parsePositionText, positionText, replay } from "./rules";
import type { Variant } from "@protocol";
import { readRecord, recordKind } from "./record_read";
import { rulesName } from "./game";
import { t } from "./i18n";

export interface TreeNode {
  readonly move: Move | null; // null at the root
  readonly text: string; // "d1-d7/g7"; "" at the root
  readonly parent: TreeNode | null;
  readonly children: TreeNode[];
  readonly ply: number; // moves from the start
}

export class VariationTree {
  readonly root: TreeNode = { move: null, text: "", parent: null, children: [], ply: 0 };
  current: TreeNode = this.root;

  constructor(readonly start: Board) {}

  // The position at `node` (default: the current node).
  board(node: TreeNode = this.current): Board {
    const b = this.start.clone();
    for (const n of this.path(node)) b.play(n.move!);
    return b;
  }

  // The nodes from the root (excluded) to `node`.
  path(node: TreeNode = this.current): TreeNode[] {
    const out: TreeNode[] = [];
    for (let n: TreeNode | null = node; n && n.parent; n = n.parent) out.push(n);
    return out.reverse();
  }

  // The moves from the start to `node`, as text.
  moves(node: TreeNode = this.current): string[] {
    return this.path(node).map((n) => n.text);
  }

  // Plays `m` from the current position: false (nothing changes) when it is not legal there.
  play(m: Move): boolean {
    const b = this.board();
    if (!b.isLegal(m)) return false;
    const text = formatMove(m, b.size);
    let child = this.current.children.find((c) => c.text === text);
    if (!child) {
      child = { move: m, text, parent: this.current, children: [], ply: this.current.ply + 1 };
      this.current.children.push(child);
    }
    this.current = child;
    return true;
  }

  // Plays moves given as text, stopping at the first that does not parse or is not legal.
  playAll(texts: readonly string[]): string | null {
    for (let i = 0; i < texts.length; ++i) {
      const m = parseMove(texts[i], this.start.size);
      if (!m || !this.play(m)) return t("analysis.read.illegal", { n: i + 1, move: texts[i] });
    }
    return null;
  }

  back(): boolean {
    if (!this.current.parent) return false;
    this.current = this.current.parent;
    return true;
  }

  // Forward along the main line (the first child).
  forward(): boolean {
    const next = this.current.children[0];
    if (!next) return false;
    this.current = next;
    return true;
  }

  toStart(): void {
    this.current = this.root;
  }

  toEnd(): void {
    while (this.forward());
  }

  // Makes the current node's line the main line at every fork above it.
  promote(): void {
    for (let n = this.current; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      siblings.splice(siblings.indexOf(n), 1);
      siblings.unshift(n);
    }
  }

  // Removes the current node and what follows it; the parent becomes current.
  remove(): boolean {
    const n = this.current;
    if (!n.parent) return false;
    n.parent.children.splice(n.parent.children.indexOf(n), 1);
    this.current = n.parent;
    return true;
  }

  // Who moves at `node`'s position (before its children's moves).
  toMove(node: TreeNode): "white" | "black" {
    return node.ply % 2 === 0 ? this.start.toMove : other(this.start.toMove);
  }
}

// What was pasted into the analysis board, read as one of: a position text
// (docs/POSITION_FORMAT.md), optionally followed by `moves M...`; a game record (JSON, text or
// SGF, record_read.ts); or a list of moves from
// `variant`'s start, with or without move numbers ("1. d1-d7/g7 d10-d4/g4 2. ..."), separated by
// spaces, commas or lines. The tree with those moves played, or why not.
export function readAnalysisInput(input: string, variant: Variant): { tree: VariationTree } | { error: string } {
  if (recordKind(input) !== null) {
    const record = readRecord(input);
    if ("error" in record) return { error: t("analysis.read.record", { error: record.error }) };
    const tree = new VariationTree(record.start);
    const wrong = tree.playAll(record.moves);
    return wrong ? { error: t("analysis.read.in_record", { rules: rulesName(record.rules), error: wrong }) } : { tree };
  }
  const text = input.trim().replace(/\s+/g, " ");
  if (text === "") return { error: t("analysis.read.empty") };
  const withMoves = /^(\S+ [wb])(?: moves((?: \S+)*))?$/.exec(text);
  if (withMoves && withMoves[1].includes("/")) {
    const read = parsePositionText(withMoves[1]);
    if ("error" in read) return { error: t("analysis.read.not_position", { error: read.error }) };
    const tree = new VariationTree(read.board);
    const wrong = tree.playAll((withMoves[2] ?? "").split(" ").filter(Boolean));
    return wrong ? { error: t("analysis.read.after_position", { error: wrong }) } : { tree };
  }
  const tokens = text.split(/[\s,;]+/).filter((t) => t !== "" && !/^\d+\.+$/.test(t)).map((t) => t.replace(/^\d+\.+/, ""));
  if (tokens.some((t) => !/^[a-l]\d{1,2}-[a-l]\d{1,2}\/[a-l]\d{1,2}$/.test(t))) {
    const bad = tokens.find((t) => !/^[a-l]\d{1,2}-[a-l]\d{1,2}\/[a-l]\d{1,2}$/.test(t));
    return { error: t("analysis.read.neither", { text: bad ?? "", position: "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w" }) };
  }
  const start = replay(variant, []).board;
  const tree = new VariationTree(start);
  const wrong = tree.playAll(tokens);
  return wrong ? { error: t("analysis.read.from_start", { rules: rulesName(variant.name), error: wrong }) } : { tree };
}

// The address of the analysis board opened on a game: `variant`'s start and `moves`, at `ply`.
export function analysisLink(variant: Variant, moves: readonly string[], ply: number): string {
  const input = `${positionText(replay(variant, []).board)}${moves.length ? ` moves ${moves.join(" ")}` : ""}`;
  return `#/analysis/${encodeURIComponent(input)}/${ply}`;
}
