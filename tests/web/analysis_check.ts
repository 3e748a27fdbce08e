// node analysis_check.js AMAZONS_ENGINE: the analysis board's pure parts. Position texts are read
// as the native engine reads them (web/src/rules.ts parsePositionText against amazons-engine's
// `position text`: the same canonical position, or the same message); pasted input becomes a tree
// of moves (web/src/analysis_tree.ts); the tree plays, forks, walks, promotes and deletes; the
// evaluation bar's share follows the score. Exits non-zero with the first differences.
import { BUILTIN_VARIANTS } from "@protocol";
import { VariationTree, readAnalysisInput } from "../../web/src/analysis_tree";
import { whiteShare } from "../../web/src/analysis_screen";
import { parseMove, parsePositionText, positionText, replay } from "../../web/src/rules";

declare const process: { argv: string[]; exit(code: number): never };
declare const console: { error(...a: unknown[]): void; log(...a: unknown[]): void };
declare function require(name: string): { spawnSync(cmd: string, args: string[], o: { input: string; encoding: string }): { stdout: string; status: number } };

const problems: string[] = [];
function same(what: string, got: unknown, want: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// What the native engine makes of each text: "position CANONICAL" or "error ...: MESSAGE".
const texts = [
  "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w",
  "2B2B2/8/B6B/8/8/W6W/8/2W2W2 b",
  "6/6/6/B5/xx4/Wx4 w",
  "3B2B3/10/10/3W2X2B/1B8/2x7/W8W/6x3/6W3/10 B",
  "3B2B3/10/10/3W2x2B/1B8/2x7/W8W/6x3/6W3/1111111111 b",
  "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W w",
  "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 q",
  "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3/10 w",
  "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2Q3 w",
  "3B2B3/10/10/B8B/10/10/W8W/10/10/03W2W3 w",
  "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W4 w",
  "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2WW3 w",
  "3B2B3/10/10/B8B/10/10/W8W/10/10/3x2x3 w",
  "3B2B3/10/10/B8B/10/10/W8W/10/10/100 w",
  "BBBBB1/6/6/6/6/WWWWW1 w",
  "6/6/6/6/6/W5 w",
  "6/6/6/6/6/6 w",
  "5 w",
  "/////// w",
];
const engine = process.argv[2];
const out = require("child_process").spawnSync(engine, [], {
  input: texts.map((t) => `position text ${t}\nshow\n`).join("") + "quit\n",
  encoding: "utf8",
});
// Each text answers one line (ok or error), then `show` answers the board and `position ...`.
const answers: string[] = [];
let pendingOk = false;
for (const line of out.stdout.split("\n")) {
  if (line === "ok") pendingOk = true;
  else if (line.startsWith("error position text: ")) answers.push(`error ${line.slice("error position text: ".length)}`);
  else if (line.startsWith("position ") && pendingOk) {
    answers.push(line);
    pendingOk = false;
  } else if (line.startsWith("position ")) {
    // the `show` after a refused text: the position before it, not an answer
  }
}
same("the native engine answered each text", answers.length, texts.length);
texts.forEach((t, i) => {
  const read = parsePositionText(t);
  const mine = "board" in read ? `position ${positionText(read.board)}` : `error ${read.error}`;
  same(`reading "${t}"`, mine, answers[i]);
});

// The protocol splits its line into words, so these reach parse_position only through other doors.
same("no side to move", parsePositionText("3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3"), { error: "at character 38: expected a space and the side to move (w or b)" });
same("two spaces", parsePositionText("6/6/6/B5/xx4/Wx4  w"), { error: "at character 18: expected the side to move, w or b, and nothing after it" });

// Pasted input: a position text, with moves after it; a move list with numbers and commas.
const standard = BUILTIN_VARIANTS.find((v) => v.name === "standard")!;
const eight = BUILTIN_VARIANTS.find((v) => v.name === "botzone8")!;
const moves = (r: ReturnType<typeof readAnalysisInput>) => ("tree" in r ? r.tree.moves() : r.error);
same("a position", moves(readAnalysisInput("  3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w ", standard)), []);
same("a position and moves", moves(readAnalysisInput("3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w moves d1-d7/g7 a7-b6/c5", standard)), ["d1-d7/g7", "a7-b6/c5"]);
same("numbered moves", moves(readAnalysisInput("1. d1-d7/g7 a7-b6/c5\n2. g1-g2/g3,", standard)), ["d1-d7/g7", "a7-b6/c5", "g1-g2/g3"]);
same("numbers glued on", moves(readAnalysisInput("1.d1-d7/g7 1...a7-b6/c5", standard)), ["d1-d7/g7", "a7-b6/c5"]);
same("an illegal move", moves(readAnalysisInput("d1-d7/g7 d10-d4/g4", standard)), 'In standard from the start, move 2 "d10-d4/g4" is not legal here.');
same("8x8 moves", moves(readAnalysisInput("c1-c5/c2", standard)), 'In standard from the start, move 1 "c1-c5/c2" is not legal here.');
same("8x8 moves on 8x8", moves(readAnalysisInput("c8-c4/c7", eight)), ["c8-c4/c7"]);
same("nothing", moves(readAnalysisInput(" \n ", standard)), "Paste a position text or a list of moves.");
same("a word", moves(readAnalysisInput("d1-d7/g7 hello", standard)), '"hello" is neither a move (like d1-d7/g7) nor a position text (like 3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w).');
same("a bad position", moves(readAnalysisInput("3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W4 w", standard)), "Not a position: at character 37: rank 1 is longer than 10 squares.");
same("a position and a bad move", moves(readAnalysisInput("3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w moves a7-b6/c5", standard)), 'After the position, move 1 "a7-b6/c5" is not legal here.');

// The tree: moves played, a fork, walking, promoting and deleting.
const t = new VariationTree(replay(standard, []).board);
const m = (text: string) => parseMove(text, 10)!;
same("a legal move", t.play(m("d1-d7/g7")), true);
same("an illegal one", t.play(m("d1-d7/g7")), false);
t.play(m("a7-b6/c5"));
same("two moves", t.moves(), ["d1-d7/g7", "a7-b6/c5"]);
same("the board follows", positionText(t.board()), "3B2B3/10/10/3W2x2B/1B8/2x7/W8W/10/10/6W3 w");
t.back();
same("the same move again goes to the child", (t.play(m("a7-b6/c5")), t.current.parent!.children.length), 1);
t.back();
t.play(m("j7-h7/h5"));
same("another move forks", t.current.parent!.children.map((c) => c.text), ["a7-b6/c5", "j7-h7/h5"]);
t.toStart();
same("at the start", t.moves(), []);
t.toEnd();
same("the end of the main line", t.moves(), ["d1-d7/g7", "a7-b6/c5"]);
t.back();
t.current = t.current.children[1];
t.promote();
same("promoted", t.root.children[0].children.map((c) => c.text), ["j7-h7/h5", "a7-b6/c5"]);
same("delete", (t.remove(), t.moves()), ["d1-d7/g7"]);
same("what is left", t.current.children.map((c) => c.text), ["a7-b6/c5"]);
same("nothing to delete at the root", (t.toStart(), t.remove()), false);
same("no way back from the root", t.back(), false);
same("who moves", [t.toMove(t.root), t.toMove(t.root.children[0])], ["white", "black"]);

// The bar: half at even, White's share for White ahead whoever moves, all for a proven win.
const value = (v: number) => ({ depth: 3, multipv: 1, score: { kind: "value" as const, value: v }, pv: [] });
same("even", whiteShare(value(0), "black"), 0.5);
same("white ahead, white to move", whiteShare(value(300), "white") > 0.6, true);
same("white ahead, black to move", whiteShare(value(-300), "black") > 0.6, true);
same("symmetric", whiteShare(value(300), "white") + whiteShare(value(300), "black"), 1);
same("a proven win for Black to move", whiteShare({ depth: 3, multipv: 1, score: { kind: "win", plies: 3 }, pv: [] }, "black"), 0);
same("a proven loss for Black to move", whiteShare({ depth: 3, multipv: 1, score: { kind: "loss", plies: 2 }, pv: [] }, "black"), 1);

if (problems.length > 0) {
  console.error(problems.slice(0, 20).join("\n"));
  process.exit(1);
}
console.log(`ok: ${texts.length} position texts read as the native engine reads them; input, tree and bar`);
