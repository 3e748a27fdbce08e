// node premove_check.js: the web client's premoves (web/src/premove.ts) on the cases of
// tests/client/test_premove.cpp, with the same notices as the desktop client. Exits non-zero
// with the first differences.
import { Premove, premoveBoard } from "../../web/src/premove";
import { Board, Cell, parseMove, parseSquare } from "../../web/src/rules";

declare const process: { exit(code: number): never };

const problems: string[] = [];
function check(what: string, ok: boolean): void {
  if (!ok) problems.push(what);
}

function standard(): Board {
  const b = new Board(10, "white");
  for (const s of ["a4", "d1", "g1", "j4"]) b.cells[parseSquare(s, 10)!] = Cell.White;
  for (const s of ["a7", "d10", "g10", "j7"]) b.cells[parseSquare(s, 10)!] = Cell.Black;
  return b;
}
const mv = (t: string) => parseMove(t, 10)!;
function after(b: Board, t: string): Board {
  const c = b.clone();
  if (!c.play(mv(t))) throw new Error(`${t} is not legal`);
  return c;
}

const thinking = after(standard(), "d1-d7/g7"); // Black to move, White premoves
check("premove board has White to move", premoveBoard(thinking, "white").toMove === "white");
check("premove board leaves the board alone", thinking.toMove === "black");

const p = new Premove();
check("a move onto a queen is refused", !p.set(thinking, "white", mv("d7-d10/d9")));
check("a black queen is not White's", !p.set(thinking, "white", mv("d10-d9/d8")));
check("a legal premove is taken", p.set(thinking, "white", mv("a4-c4/c8")));
check("panel line", p.panelLine(10) === "Premove a4-c4/c8, Esc cancels");
check("only one at a time", !p.set(thinking, "white", mv("g1-g5/e3")));
check("cancel", p.cancel() && !p.cancel() && p.move === null);

const kept = new Premove();
kept.set(thinking, "white", mv("g1-g5/e3"));
const sent = kept.resolve(after(thinking, "j7-h7/h8"));
check("still legal: sent", sent !== null && sent.notice === null && kept.move === null);

const cases: [string, string, string][] = [
  ["a4-c4/c8", "d10-c9/c8", "Premove a4-c4/c8 dropped: the arrow square c8 is now blocked"],
  ["g1-g6/g2", "j7-g4/h4", "Premove g1-g6/g2 dropped: the queen's way to g6 is now blocked"],
  ["j4-j6/j5", "j7-j6/i6", "Premove j4-j6/j5 dropped: the square j6 is now blocked"],
  ["a4-c4/c9", "a7-c7/b7", "Premove a4-c4/c9 dropped: the arrow's way to c9 is now blocked"],
];
for (const [pre, reply, notice] of cases) {
  const q = new Premove();
  check(`${pre} taken`, q.set(thinking, "white", mv(pre)));
  const out = q.resolve(after(thinking, reply));
  check(`${pre} after ${reply}: "${out?.notice}"`, out !== null && out.notice === notice);
}

if (problems.length) {
  for (const x of problems) console.error(x);
  process.exit(1);
}
console.log(`premove checks passed`);
