// node record_check.js AMAZONS_RECORD TMPDIR: the records the page writes (web/src/record.ts) for
// games the server never saw and for its reviews, read back by amazons-record: the text record
// converted to text gives it back byte for byte, the JSON record converted to text gives the same
// text (annotations included), and the SGF converted to JSON has the same rules, players, moves
// and result. Games on both built-in boards, with a review's annotations on some moves, ended by
// no moves and by resignation. Exits non-zero with the first differences.
import { BUILTIN_VARIANTS } from "@protocol";
import { type LocalRecord, annotatedJson, fromServerRecord, recordJson, recordSgf, recordText } from "../../web/src/record";
import { Board, formatMove, legalMoveTexts, parsePositionText, positionText } from "../../web/src/rules";
import { readRecord } from "../../web/src/record_read";
import { readAnalysisInput } from "../../web/src/analysis_tree";

declare const process: { argv: string[]; exit(code: number): never };
declare const console: { error(...a: unknown[]): void; log(...a: unknown[]): void };
interface Fs { writeFileSync(p: string, d: string): void; readFileSync(p: string, e: string): string; }
interface Cp { spawnSync(cmd: string, args: string[], o: { encoding: string }): { stdout: string; stderr: string; status: number } }
declare function require(name: "fs"): Fs;
declare function require(name: "child_process"): Cp;

const problems: string[] = [];
function same(what: string, got: unknown, want: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

const [tool, dir] = [process.argv[2], process.argv[3]];
const fs = require("fs");
const cp = require("child_process");
function convert(from: string, to: string): string {
  const r = cp.spawnSync(tool, ["convert", `${dir}/${from}`, `${dir}/${to}`], { encoding: "utf8" });
  if (r.status !== 0) {
    problems.push(`amazons-record convert ${from} ${to}: ${r.stderr.trim()}`);
    return "";
  }
  return fs.readFileSync(`${dir}/${to}`, "utf8");
}

// A whole game where each side plays its legal move number `pick` (mod the count), to its end.
function game(variantName: string, pick: number, resignAt: number | null): LocalRecord {
  const rules = BUILTIN_VARIANTS.find((v) => v.name === variantName)!;
  const board = Board.fromVariant(rules);
  const moves: string[] = [];
  const others: (string | null)[] = []; // another legal move at each ply, for "best"
  while (board.hasMove(board.toMove) && moves.length !== resignAt) {
    const legal = legalMoveTexts(board);
    const text = legal[(pick * (moves.length + 1)) % legal.length];
    others.push(legal.find((m) => m !== text) ?? null);
    const [from, rest] = text.split("-");
    const [to, arrow] = rest.split("/");
    const sq = (s: string) => board.square(s.charCodeAt(0) - 97, Number(s.slice(1)) - 1);
    board.play({ from: sq(from), to: sq(to), arrow: sq(arrow) });
    moves.push(formatMove({ from: sq(from), to: sq(to), arrow: sq(arrow) }, board.size));
  }
  const loser = board.toMove;
  const winner = loser === "white" ? "black" : "white";
  const analysis = moves.map((_, i) => (i % 3 === 1 ? { before: 1.25 - i, after: -0.5 * i, best: i % 2 ? null : others[i], mark: i % 6 === 1 ? ("blunder" as const) : null } : null));
  return {
    rules,
    white: { name: "visitor" },
    black: { name: "Computer (hard)", bot: true },
    moves,
    analysis,
    result: { winner, reason: resignAt === null ? "no_moves" : "resign" },
    started: new Date(Date.UTC(2026, 11, 6, 22, 30, 0)),
    ended: new Date(Date.UTC(2026, 11, 6, 22, 41, 7, 250)),
  };
}

const games: Array<[string, LocalRecord]> = [
  ["standard-resigned", game("standard", 7, 23)],
  ["botzone8-to-the-end", game("botzone8", 3, null)],
];
for (const [name, r] of games) {
  const text = recordText(r);
  fs.writeFileSync(`${dir}/${name}.txt`, text);
  fs.writeFileSync(`${dir}/${name}.json`, JSON.stringify(recordJson(r), null, 1));
  fs.writeFileSync(`${dir}/${name}.sgf`, recordSgf(r));
  same(`${name}: text -> text`, convert(`${name}.txt`, `${name}-again.txt`), text);
  same(`${name}: json -> text`, convert(`${name}.json`, `${name}-from-json.txt`), text);
  const fromSgf = JSON.parse(convert(`${name}.sgf`, `${name}-from-sgf.json`) || "{}") as { rules?: { name: string }; white?: { name: string }; black?: { name: string }; moves?: unknown[]; result?: unknown };
  same(`${name}: sgf rules`, fromSgf.rules?.name, r.rules.name);
  same(`${name}: sgf players`, [fromSgf.white?.name, fromSgf.black?.name], [r.white.name, r.black.name]);
  same(`${name}: sgf moves`, (fromSgf.moves ?? []).map((m) => (typeof m === "string" ? m : (m as { move: string }).move)), r.moves);
  const result = fromSgf.result as { winner?: string; reason?: string } | undefined;
  same(`${name}: sgf result`, [result?.winner, result?.reason], [r.result!.winner, r.result!.reason]);
  same(`${name}: annotations in the text`, (text.match(/\{before /g) ?? []).length, r.analysis!.filter(Boolean).length);
  // The page reads back what it wrote and what amazons-record wrote: the same start and moves.
  const startText = positionText(Board.fromVariant(r.rules));
  for (const file of [`${name}.txt`, `${name}.json`, `${name}.sgf`, `${name}-again.txt`, `${name}-from-sgf.json`]) {
    const read = readRecord(fs.readFileSync(`${dir}/${file}`, "utf8"));
    if ("error" in read) {
      problems.push(`${file}: the page cannot read it: ${read.error}`);
      continue;
    }
    same(`${file} read by the page: rules, start`, [read.rules, positionText(read.start)], [r.rules.name, startText]);
    same(`${file} read by the page: moves`, read.moves, r.moves);
  }
  const tree = readAnalysisInput(fs.readFileSync(`${dir}/${name}.sgf`, "utf8"), BUILTIN_VARIANTS[0]);
  same(`${name}: the analysis board plays the SGF's moves`, "tree" in tree ? tree.tree.path().length : tree.error, r.moves.length);
}

// A server's record (time control, a start position of its own, thinking times) with a review
// made in the page: the annotated JSON is the server's record plus the analysis, and reads back
// as the same text as the text written from it; the SGF's setup is the start position.
{
  const standard = BUILTIN_VARIANTS.find((v) => v.name === "standard")!;
  const start = "3B2B3/10/10/B8B/10/3x6/W8W/10/10/3W2W3 b";
  const b = (parsePositionText(start) as { board: Board }).board;
  const moves: string[] = [];
  const others: string[] = [];
  for (let i = 0; i < 6; ++i) {
    const legal = legalMoveTexts(b);
    moves.push(legal[(5 * i + 3) % legal.length]);
    others.push(legal.find((m) => m !== moves[i])!);
    const r = readMove(moves[i], b);
    b.play(r);
  }
  const server = {
    format: "amazons-game/1", rules: standard, white: { name: "alice", rating: 1612 }, black: { name: "bot", bot: true },
    time_control: { initial: 300, increment: 2.5 }, start,
    moves: moves.map((m, i) => (i % 2 ? { move: m, elapsed_ms: 700 + i, clock_ms: 299300 - i } : m)),
    result: { winner: "white" as const, reason: "resign" as const }, started_at: "2026-11-29T14:25:19Z", ended_at: "2026-11-29T14:40:00.250Z",
  };
  const analysis = moves.map((_, i) => (i % 2 === 0 ? { before: 0.5 * i, after: -1.75, best: others[i], mark: i === 2 ? ("mistake" as const) : null } : null));
  const text = recordText(fromServerRecord(server, analysis));
  fs.writeFileSync(`${dir}/server.txt`, text);
  fs.writeFileSync(`${dir}/server.json`, JSON.stringify(annotatedJson(server, analysis)));
  fs.writeFileSync(`${dir}/server.sgf`, recordSgf(fromServerRecord(server, analysis)));
  same("server record: text -> text", convert("server.txt", "server-again.txt"), text);
  same("server record: annotated json -> text", convert("server.json", "server-from-json.txt"), text);
  const json = JSON.parse(convert("server.json", "server-again.json") || "{}") as { moves?: { elapsed_ms?: number }[]; time_control?: unknown };
  same("server record: thinking times kept", json.moves?.[1]?.elapsed_ms, 701);
  const tc = json.time_control as { initial?: number; increment?: number } | undefined;
  same("server record: time control", [tc?.initial, tc?.increment], [300, 2.5]);
  same("server record: the time control's text", /\[TimeControl "300\+2\.5"\]/.test(text), true);
  // SGF names colours by who moves first, and its reader makes the first mover White unless a
  // known variant's start says otherwise: a start of our own with Black to move reads back with
  // the colours exchanged (amazons-record's own SGF does the same). The moves are the same.
  const fromSgf = JSON.parse(convert("server.sgf", "server-from-sgf.json") || "{}") as { start?: string; moves?: unknown[] };
  same("server record: sgf moves", (fromSgf.moves ?? []).map((m) => (typeof m === "string" ? m : (m as { move: string }).move)), moves);
  same("server record: sgf start, colours exchanged", fromSgf.start, "3W2W3/10/10/W8W/10/3x6/B8B/10/10/3B2B3 w");
  // The page reads the server's record with its own start, thinking times and analysis.
  for (const file of ["server.json", "server.txt"]) {
    const read = readRecord(fs.readFileSync(`${dir}/${file}`, "utf8"));
    same(`${file} read by the page`, "error" in read ? read.error : [positionText(read.start), read.moves], [start, moves]);
  }
  const fromServerSgf = readRecord(fs.readFileSync(`${dir}/server.sgf`, "utf8"));
  same("server.sgf read by the page, colours exchanged as amazons-record does", "error" in fromServerSgf ? fromServerSgf.error : [positionText(fromServerSgf.start), fromServerSgf.moves], [fromSgf.start, moves]);
}

// An SGF with variations: the main line (the first child at each branch) is read.
{
  const read = readRecord("(;GM[18]SZ[10]RU[standard]C[a comment (with brackets\\] and parens)];B[djddgd](;W[dadcdb];B[ddeefe])(;W[adbecf]))");
  same("SGF main line", "error" in read ? read.error : read.moves, ["d1-d7/g7", "d10-d8/d9", "d7-e6/f6"]);
}

// Records the page refuses, each with a reason that names what is wrong.
for (const [input, want] of [
  ["{\"rules\": \"standard\", \"moves\": [", "not valid JSON"],
  ["{\"rules\": \"standard\"}", "no list of moves"],
  ["{\"rules\": {\"name\": \"x\", \"size\": 30, \"white\": [], \"black\": [], \"first\": \"white\"}, \"moves\": []}", "board size 30"],
  ["{\"rules\": {\"name\": \"x\", \"size\": 6, \"white\": [\"a1\"], \"black\": [\"a1\"], \"first\": \"white\"}, \"moves\": []}", "queens"],
  ["{\"rules\": \"standard\", \"moves\": [\"d1-d7/g7\", 5]}", "move 2"],
  ["{\"rules\": \"standard\", \"moves\": [\"d1-d7/g7\", \"d1-d2/d3\"]}", "In the record (standard)"],
  ["[Board \"10\"]\n\n1. d1-d7/g7", "no [Rules] tag"],
  ["[Rules \"standard\"]\n[Start \"10/10 w\"]\n", "the start position"],
  ["(;GM[1]SZ[19];B[dd])", "not the Game of the Amazons"],
  ["(;GM[18]SZ[10]RU[standard];B[adaj])", "three points"],
  ["(;GM[18]SZ[10]RU[standard];B[adaja", "not closed"],
] as const) {
  const read = readAnalysisInput(input, BUILTIN_VARIANTS[0]);
  if (!("error" in read) || !read.error.includes(want)) problems.push(`${JSON.stringify(input)}: want an error with "${want}", got ${JSON.stringify(read)}`);
}

function readMove(text: string, board: Board) {
  const [from, rest] = text.split("-");
  const [to, arrow] = rest.split("/");
  const sq = (s: string) => board.square(s.charCodeAt(0) - 97, Number(s.slice(1)) - 1);
  return { from: sq(from), to: sq(to), arrow: sq(arrow) };
}

if (problems.length > 0) {
  console.error(problems.slice(0, 20).join("\n"));
  process.exit(1);
}
console.log(`ok: ${games.length} games written as text, JSON and SGF and read back by amazons-record`);
