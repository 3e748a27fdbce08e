// node computer_check.js: the game against the engine in the page (web/src/computer_game.ts):
// settings read back with fallbacks, the engine's answers checked like anyone's moves, the end
// found when the side to move has none. Exits non-zero with the first differences.
import { ComputerGame, DEFAULT_SETTINGS, parseSettings } from "../../web/src/computer_game";
import { formatMove } from "../../web/src/rules";

declare const process: { exit(code: number): never };
declare const console: { error(...a: unknown[]): void; log(...a: unknown[]): void };

const problems: string[] = [];
function same(what: string, got: unknown, want: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// Settings: kept values come back, anything else is the default.
same("nothing kept", parseSettings(null), DEFAULT_SETTINGS);
same("not JSON", parseSettings("{oops"), DEFAULT_SETTINGS);
same("kept", parseSettings('{"rules":"botzone8","level":"max","color":"random"}'), { rules: "botzone8", level: "max", color: "random" });
same("unknown values", parseSettings('{"rules":"chess","level":"god","color":"green"}'), DEFAULT_SETTINGS);

// The colour: a random one follows the coin; botzone8 starts with Black to move.
same("random heads", new ComputerGame({ ...DEFAULT_SETTINGS, color: "random" }, () => true).you, "white");
same("random tails", new ComputerGame({ ...DEFAULT_SETTINGS, color: "random" }, () => false).you, "black");
const eight = new ComputerGame({ rules: "botzone8", level: "easy", color: "white" });
same("botzone8 first to move", eight.board.toMove, "black");
same("botzone8: the engine's turn", eight.yourTurn, false);

// The engine's answers are checked.
const g = new ComputerGame({ rules: "standard", level: "beginner", color: "black" });
same("not legal", g.playEngine("d1-d1/d2"), 'the engine\'s move "d1-d1/d2" is not legal here');
same("not a move", g.playEngine("bestmove"), 'the engine\'s move "bestmove" is not legal here');
same("a pass with moves left", g.playEngine(null), "the engine passed while it had moves");
same("nothing played", g.moves, []);
same("a legal move", g.playEngine("d1-d7/g7"), null);
same("the move is kept", g.moves, ["d1-d7/g7"]);
same("not the engine's turn now", g.playEngine("a7-b7/c7"), "it is not the engine's turn");

// A whole game, each side taking its first legal move, ends when the side to move has none,
// and that side has lost.
const whole = new ComputerGame({ rules: "botzone8", level: "easy", color: "black" });
for (let ply = 0; ply < 200 && !whole.over; ++ply) {
  const b = whole.board;
  const q = b.queens(b.toMove).find((s) => b.destinations(s).length > 0)!;
  const to = b.destinations(q)[0];
  const move = { from: q, to, arrow: b.arrowTargets(q, to)[0] };
  if (whole.yourTurn) whole.play(move);
  else same(`engine move ${ply}`, whole.playEngine(formatMove(move, b.size)), null);
}
same("the game ended", whole.over, true);
same("the loser cannot move", whole.board.hasMove(whole.board.toMove), false);
same("the winner", whole.winner, whole.board.toMove === "white" ? "black" : "white");
same("no move after the end", whole.play({ from: 0, to: 1, arrow: 2 }), false);

// Resigning loses.
const r = new ComputerGame({ ...DEFAULT_SETTINGS, color: "white" });
r.resign();
same("resigned: the winner", r.winner, "black");
same("resigned: over", r.over, true);

if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log("computer_check: ok");
