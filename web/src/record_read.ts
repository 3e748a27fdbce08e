// Reading a game record pasted or opened in the page: our JSON record (docs/GAME_RECORD.md, as
// the server and record.ts write it, annotations ignored), our text record (tags and numbered
// moves, comments in braces) and SGF (GM[18], as amazons-record and record.ts write it). What
// comes out is a start position and the moves, for the analysis board; the moves are checked
// by whoever plays them. Every refusal says what is wrong and where.
import { BUILTIN_VARIANTS, type Color, type Variant } from "@protocol";
import { Board, Cell, MAX_SIZE, parsePositionText, parseSquare, positionProblem } from "./rules";

export interface ReadRecord {
  start: Board;
  moves: string[];
  rules: string; // the variant's name, for the person
}

export type RecordKind = "json" | "text" | "sgf";

// Which record `text` looks like, or null when it is none of them (moves or a position text).
export function recordKind(text: string): RecordKind | null {
  const t = text.trimStart();
  if (t.startsWith("{")) return "json";
  if (t.startsWith("(")) return "sgf";
  if (/^\[[A-Za-z]+ "/.test(t)) return "text";
  return null;
}

export function readRecord(text: string): ReadRecord | { error: string } {
  const kind = recordKind(text);
  if (kind === "json") return readJson(text);
  if (kind === "sgf") return readSgf(text);
  if (kind === "text") return readText(text);
  return { error: "not a game record (JSON, text or SGF)" };
}

// A variant from a record's own description, checked as the server checks one.
function checkedVariant(v: Partial<Variant>): Variant | { error: string } {
  if (typeof v.name !== "string" || v.name === "") return { error: "the rules have no name" };
  const builtin = BUILTIN_VARIANTS.find((b) => b.name === v.name);
  if (v.size === undefined && v.white === undefined && builtin) return builtin;
  if (!Number.isInteger(v.size) || v.size! < 6 || v.size! > MAX_SIZE) return { error: `the board size ${JSON.stringify(v.size)} is not 6 to ${MAX_SIZE}` };
  if (!Array.isArray(v.white) || !Array.isArray(v.black)) return { error: "the rules do not list both sides' queens" };
  if (v.first !== "white" && v.first !== "black") return { error: `the side to move first is ${JSON.stringify(v.first)}, not white or black` };
  const variant: Variant = { name: v.name, size: v.size!, white: v.white.map(String), black: v.black.map(String), first: v.first };
  let board: Board;
  try {
    board = Board.fromVariant(variant);
  } catch (e) {
    return { error: `the rules' queens: ${(e as Error).message}` };
  }
  const problem = positionProblem(board);
  return problem ? { error: `the rules' queens: ${problem}` } : variant;
}

function startOf(variant: Variant, start: unknown): Board | { error: string } {
  if (start === undefined || start === null) return Board.fromVariant(variant);
  if (typeof start !== "string") return { error: "the start position is not a position text" };
  const read = parsePositionText(start);
  if ("error" in read) return { error: `the start position, ${read.error}` };
  if (read.board.size !== variant.size) return { error: `the start position is ${read.board.size}x${read.board.size} on a ${variant.size}x${variant.size} board` };
  return read.board;
}

function readJson(text: string): ReadRecord | { error: string } {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    return { error: `not valid JSON (${(e as Error).message})` };
  }
  if (!rec || typeof rec !== "object" || Array.isArray(rec)) return { error: "the JSON is not a game record (an object with rules and moves)" };
  const rules = typeof rec.rules === "string" ? { name: rec.rules } : (rec.rules as Partial<Variant> | undefined);
  if (!rules || typeof rules !== "object") return { error: "the record has no rules" };
  const variant = checkedVariant(rules);
  if ("error" in variant) return variant;
  if (!Array.isArray(rec.moves)) return { error: "the record has no list of moves" };
  const moves: string[] = [];
  for (const [i, m] of rec.moves.entries()) {
    const move = typeof m === "string" ? m : m && typeof m === "object" ? (m as { move?: unknown }).move : undefined;
    if (typeof move !== "string") return { error: `move ${i + 1} of the record is not a move` };
    moves.push(move);
  }
  const start = startOf(variant, rec.start);
  return "error" in start ? start : { start, moves, rules: variant.name };
}

// `[Tag "value"]` lines, then the moves: numbers, comments in braces and a result are skipped.
function readText(text: string): ReadRecord | { error: string } {
  const tags = new Map<string, string>();
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  for (; i < lines.length; ++i) {
    const line = lines[i].trim();
    if (line === "") continue;
    if (!line.startsWith("[")) break;
    const tag = /^\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]$/.exec(line);
    if (!tag) return { error: `line ${i + 1} is not a tag like [Rules "standard"]` };
    tags.set(tag[1], tag[2].replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c === "r" ? "\r" : c)));
  }
  const name = tags.get("Rules") ?? tags.get("Variant");
  if (!name) return { error: "the record has no [Rules] tag" };
  const size = tags.has("Board") ? Number(tags.get("Board")) : undefined;
  const words = (tag: string) => (tags.has(tag) ? tags.get(tag)!.split(/\s+/).filter(Boolean) : undefined);
  const first = tags.get("First") as Color | undefined;
  const variant = checkedVariant(size === undefined ? { name } : { name, size, white: words("WhiteQueens"), black: words("BlackQueens"), first });
  if ("error" in variant) return variant;
  const body = lines.slice(i).join("\n").replace(/\{[^}]*\}/g, " ");
  const moves = body.split(/\s+/).filter((t) => t !== "" && !/^\d+\.+$/.test(t) && !/^(1-0|0-1|\*|1\/2-1\/2)$/.test(t)).map((t) => t.replace(/^\d+\.+/, ""));
  const start = startOf(variant, tags.get("Start"));
  return "error" in start ? start : { start, moves, rules: variant.name };
}

// SGF: one game tree; the main line is read (the first child at each branch). Points are the
// column and the row from the top; B is the side that moves first.
function readSgf(text: string): ReadRecord | { error: string } {
  const nodes: Map<string, string[]>[] = [];
  let at = text.indexOf("(");
  let depth = 0;
  const entered: boolean[] = []; // whether a child tree of depth d has been read (the main line)
  const fail = (why: string) => ({ error: `SGF, at character ${at + 1}: ${why}` });
  // From the "(" at `from`: the index of its matching ")", values in brackets skipped.
  const closing = (from: number): number => {
    let d = 0;
    for (let k = from; k < text.length; ++k) {
      if (text[k] === "[") {
        for (++k; k < text.length && text[k] !== "]"; ++k) if (text[k] === "\\") ++k;
      } else if (text[k] === "(") {
        ++d;
      } else if (text[k] === ")" && --d === 0) {
        return k;
      }
    }
    return text.length;
  };
  for (; at >= 0 && at < text.length; ++at) {
    const c = text[at];
    if (c === "(") {
      if (entered[depth]) {
        at = closing(at); // a variation beside the main line
        continue;
      }
      entered[depth] = true;
      ++depth;
    } else if (c === ")") {
      if (--depth === 0) break;
    } else if (c === ";") {
      nodes.push(new Map());
    } else if (/[A-Za-z]/.test(c)) {
      let ident = "";
      while (at < text.length && /[A-Za-z]/.test(text[at])) ident += text[at++];
      const values: string[] = [];
      while (at < text.length) {
        while (at < text.length && /\s/.test(text[at])) ++at;
        if (text[at] !== "[") break;
        let v = "";
        for (++at; at < text.length && text[at] !== "]"; ++at) v += text[at] === "\\" ? text[++at] ?? "" : text[at];
        if (at >= text.length) return fail(`the value of ${ident} is not closed with ]`);
        values.push(v);
        ++at;
      }
      if (values.length === 0) return fail(`${ident} has no value`);
      --at;
      if (nodes.length === 0) return fail(`${ident} before the first node (;)`);
      nodes[nodes.length - 1].set(ident.toUpperCase(), values);
    } else if (!/\s/.test(c)) {
      return fail(`unexpected '${c}'`);
    }
  }
  if (depth !== 0) return { error: "SGF: the game tree is not closed with )" };
  const root = nodes[0];
  if (!root) return { error: "SGF: no game tree" };
  const gm = root.get("GM")?.[0];
  if (gm !== undefined && gm !== "18") return { error: `SGF: GM[${gm}] is not the Game of the Amazons (GM[18])` };
  const n = Number(root.get("SZ")?.[0] ?? "10");
  if (!Number.isInteger(n) || n < 6 || n > MAX_SIZE) return { error: `SGF: the board size SZ[${root.get("SZ")?.[0]}] is not 6 to ${MAX_SIZE}` };
  const point = (p: string): string | null => {
    if (!/^[a-z]{2}$/.test(p)) return null;
    const file = p.charCodeAt(0) - 97, row = p.charCodeAt(1) - 97;
    return file < n && row < n ? `${String.fromCharCode(97 + file)}${n - row}` : null;
  };
  const name = root.get("RU")?.[0] ?? (n === 10 ? "standard" : `${n}x${n}`);
  const builtin = BUILTIN_VARIANTS.find((v) => v.name === name && v.size === n);
  const firstMover: Color = builtin?.first ?? "white";
  const second: Color = firstMover === "white" ? "black" : "white";
  let start: Board;
  if (root.has("AB") || root.has("AW")) {
    start = new Board(n, firstMover);
    const place = (prop: string, cell: "W" | "B" | "x") => {
      for (const p of root.get(prop) ?? []) {
        const sq = point(p);
        if (sq === null) return `${prop}[${p}] is not a point on the board`;
        start.cells[parseSquare(sq, n)!] = cell === "W" ? Cell.White : cell === "B" ? Cell.Black : Cell.Arrow;
      }
      return null;
    };
    // The first mover's queens are SGF's B.
    const wrong = place("AB", firstMover === "white" ? "W" : "B") ?? place("AW", second === "white" ? "W" : "B") ?? place("AA", "x");
    if (wrong) return { error: `SGF: ${wrong}` };
    const problem = positionProblem(start);
    if (problem) return { error: `SGF: the setup has ${problem}` };
    if (root.get("PL")?.[0] === "W") start.toMove = second;
  } else if (builtin) {
    start = Board.fromVariant(builtin);
  } else {
    return { error: `SGF: the rules ${name} are not built in and the record has no setup (AB, AW)` };
  }
  const moves: string[] = [];
  for (const [i, node] of nodes.slice(1).entries()) {
    const value = node.get("B")?.[0] ?? node.get("W")?.[0];
    if (value === undefined) continue;
    const squares = value.length === 6 ? [value.slice(0, 2), value.slice(2, 4), value.slice(4, 6)].map(point) : [];
    if (squares.length !== 3 || squares.includes(null)) return { error: `SGF: node ${i + 2}'s move [${value}] is not three points (queen, destination, arrow)` };
    moves.push(`${squares[0]}-${squares[1]}/${squares[2]}`);
  }
  return { start, moves, rules: builtin ? builtin.name : name };
}
