// node sound_check.js: which sounds a move makes (web/src/sound.ts's moveSounds): the queen's
// knock (brighter when it becomes your move), the arrow's tick, and a capture when the move
// leaves a queen that could move with no move, the mover's own included. Exits non-zero with
// the first problems.
import { BUILTIN_VARIANTS } from "@protocol";
import { moveSounds } from "../../web/src/sound";
import { Board, parseMove, parsePositionText } from "../../web/src/rules";

declare const process: { exit(code: number): never };
declare const console: { error(...a: unknown[]): void; log(...a: unknown[]): void };

const problems: string[] = [];
function check(what: string, board: Board, move: string, yourMoveNext: boolean, want: string[]): void {
  const m = parseMove(move, board.size);
  if (!m || !board.isLegal(m)) {
    problems.push(`${what}: ${move} is not legal`);
    return;
  }
  const got = moveSounds(board, m, yourMoveNext);
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}
const position = (text: string) => (parsePositionText(text) as { board: Board }).board;

const start = Board.fromVariant(BUILTIN_VARIANTS.find((v) => v.name === "standard")!);
check("an opening move", start, "d1-d7/g7", false, ["move", "arrow"]);
check("an opening move that makes it your move", start, "d1-d7/g7", true, ["your-move", "arrow"]);
// Black's queen in the corner has one way out, b6: the arrow there shuts it in.
check("the arrow that shuts a queen in", position("B5/xx4/6/3W2/6/6 w"), "d3-d4/b6", false, ["move", "arrow", "capture"]);
check("an arrow beside it", position("B5/xx4/6/3W2/6/6 w"), "d3-d4/c5", false, ["move", "arrow"]);
// The mover walls itself in: a1 with a2, b2 and (its arrow) b1 burned.
check("a queen that shuts itself in", position("5B/6/6/6/xx4/1W4 w"), "b1-a1/b1", false, ["move", "arrow", "capture"]);
// A queen that had no move before is not captured again.
check("a queen already shut in", position("Bx4/xx4/6/3W2/6/6 w"), "d3-d4/d5", false, ["move", "arrow"]);

if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log("ok: the sounds of six moves");
