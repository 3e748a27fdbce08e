// node lesson_check.js: the steps of "Learn to play" (web/src/lesson.ts). Each position reads
// and has White to move; each step can be solved by some legal move and refused for another, so
// that its check decides something; a marked square is on the board. Exits non-zero with the
// first problems.
import { LESSON, reachable, stepBoard } from "../../web/src/lesson";
import { legalMoveTexts, parseMove, parseSquare } from "../../web/src/rules";

declare const process: { exit(code: number): never };
declare const console: { error(...a: unknown[]): void; log(...a: unknown[]): void };

const problems: string[] = [];
for (const step of LESSON) {
  const b = stepBoard(step);
  if (b.toMove !== "white") problems.push(`${step.title}: White is not to move`);
  if (step.target && parseSquare(step.target, b.size) === null) problems.push(`${step.title}: the mark ${step.target} is off the board`);
  const moves = legalMoveTexts(b).map((t) => parseMove(t, b.size)!);
  const solving = moves.filter((m) => step.check(b, m) === null).length;
  if (solving === 0) problems.push(`${step.title}: no legal move solves it`);
  if (solving === moves.length) problems.push(`${step.title}: every legal move solves it`);
  if (step.check(b.clone(), moves[0]) !== step.check(b, moves[0])) problems.push(`${step.title}: the check is not deterministic`);
}
// The territory count: a queen walled into a 2x1 pocket reaches 1 square.
const pocket = stepBoard({ title: "", text: "", position: "Bx4/xx4/6/6/6/W5 w", check: () => null, done: "" });
if (reachable(pocket, pocket.queens("black")[0]) !== 0) problems.push("reachable: a queen shut in reaches nothing");
if (reachable(pocket, pocket.queens("white")[0]) !== 31) problems.push(`reachable: White reaches ${reachable(pocket, pocket.queens("white")[0])} squares, not 31`);

if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`ok: ${LESSON.length} lesson steps, each solvable and each check refusing some move`);
