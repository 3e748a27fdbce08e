// node computer_check.js: the engine in the page. The game against it (web/src/computer_game.ts):
// settings read back with fallbacks, the engine's answers checked like anyone's moves, the end
// found when the side to move has none. Its analysis (engine.ts, analysis_view.ts): info lines
// read, scores in words, positions written as the engine reads them; the review's judgement
// (review.ts). Exits non-zero with the
// first differences.
import { BUILTIN_VARIANTS } from "@protocol";
import { scoreText } from "../../web/src/analysis_view";
import { ComputerGame, DEFAULT_SETTINGS, parseSettings } from "../../web/src/computer_game";
import { parseInfo } from "../../web/src/engine";
import { type Mark, type PlyReview, markFor, markOfMove, shareProof, squaresOf } from "../../web/src/review";
import { Board, formatMove, parseMove, positionText } from "../../web/src/rules";

declare const process: { exit(code: number): never };
declare const console: { error(...a: unknown[]): void; log(...a: unknown[]): void };

const problems: string[] = [];
function same(what: string, got: unknown, want: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// Settings: kept values come back, anything else is the default.
same("nothing kept", parseSettings(null), DEFAULT_SETTINGS);
same("not JSON", parseSettings("{oops"), DEFAULT_SETTINGS);
same("kept", parseSettings('{"rules":"botzone8","level":"max","color":"random","clock":"5+5"}'), { rules: "botzone8", level: "max", color: "random", clock: "5+5" });
same("an old setting without a clock", parseSettings('{"rules":"botzone8","level":"max","color":"random"}'), { rules: "botzone8", level: "max", color: "random", clock: "none" });
same("an unknown clock", parseSettings('{"clock":"1+0"}').clock, "none");
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

// Takeback: your move and the engine's answer; nothing when you have not moved.
const t = new ComputerGame({ rules: "standard", level: "easy", color: "white" });
same("no takeback at the start", t.canTakeBack, false);
t.play(parseMove("d1-d7/g7", 10)!);
same("the engine's answer", t.playEngine("a7-b7/c7"), null);
same("takeback", t.takeBack(), true);
same("taken back", [t.moves, t.board.toMove, t.played.length], [[], "white", 0]);
t.play(parseMove("d1-d7/g7", 10)!);
same("takeback while the engine thinks", t.takeBack(), true);
same("taken back again", t.moves, []);
// As White on botzone8 the engine (Black) moves first: its first move stays.
const tb = new ComputerGame({ rules: "botzone8", level: "easy", color: "white" });
same("the engine's first move", tb.playEngine("c8-c3/b4"), null);
same("nothing of yours to take back", tb.canTakeBack, false);
tb.play(parseMove("a3-b3/b2", 8)!);
tb.playEngine("a6-a4/a5");
tb.takeBack();
same("back to the engine's first move", tb.moves, ["c8-c3/b4"]);

// Saved and restored: the same game; a save that does not replay is dropped.
const saved = JSON.stringify(tb.saved());
const back = ComputerGame.restore(saved);
same("restored", back && [back.variant.name, back.level, back.you, back.moves, back.board.toMove], ["botzone8", "easy", "white", ["c8-c3/b4"], "white"]);
same("nothing saved", ComputerGame.restore(null), null);
same("not JSON", ComputerGame.restore("{"), null);
same("an illegal move saved", ComputerGame.restore(JSON.stringify({ ...tb.saved(), moves: ["a1-a2/a3"] })), null);
same("an unknown level", ComputerGame.restore(JSON.stringify({ ...tb.saved(), level: "god" })), null);
const resignedSave = new ComputerGame({ rules: "standard", level: "easy", color: "black" });
resignedSave.resign();
same("a resignation is kept", ComputerGame.restore(JSON.stringify(resignedSave.saved()))?.winner, "white");

// Resigning loses.
const r = new ComputerGame({ ...DEFAULT_SETTINGS, color: "white" });
r.resign();
same("resigned: the winner", r.winner, "black");
same("resigned: over", r.over, true);

// Positions as docs/POSITION_FORMAT.md writes them.
const standard = Board.fromVariant(BUILTIN_VARIANTS.find((v) => v.name === "standard")!);
same("standard start", positionText(standard), "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w");
same("botzone8 start", positionText(Board.fromVariant(BUILTIN_VARIANTS.find((v) => v.name === "botzone8")!)), "2B2B2/8/B6B/8/8/W6W/8/2W2W2 b");
standard.play(parseMove("d1-d7/g7", 10)!);
same("after d1-d7/g7", positionText(standard), "3B2B3/10/10/B2W2x2B/10/10/W8W/10/10/6W3 b");

// Clocks: the mover's time runs, an increment after each move, a flag ends the game as a loss
// on time; the save keeps the clocks; a takeback is not offered with clocks.
{
  let now = 1_000_000;
  const clocked = new ComputerGame({ rules: "standard", level: "easy", color: "white", clock: "3+2" }, () => true, () => now);
  same("3+2: both clocks", [clocked.remaining("white"), clocked.remaining("black")], [180_000, 180_000]);
  now += 10_000;
  same("White's clock runs", [clocked.remaining("white"), clocked.remaining("black")], [170_000, 180_000]);
  clocked.play(parseMove("d1-d7/g7", 10)!);
  same("the increment after White's move", [clocked.remaining("white"), clocked.remaining("black")], [172_000, 180_000]);
  now += 5_000;
  same("the engine's answer costs its clock", clocked.playEngine("a7-b7/c7"), null);
  same("after Black's move", [clocked.remaining("white"), clocked.remaining("black")], [172_000, 177_000]);
  same("no takeback with clocks", clocked.canTakeBack, false);
  const saved = JSON.stringify(clocked.saved());
  now += 1_000;
  const again = ComputerGame.restore(saved, () => now)!;
  same("the save keeps the running clock", [again.remaining("white"), again.remaining("black")], [171_000, 177_000]);
  now += 171_000;
  same("the flag falls at 0", clocked.checkFlag(), true);
  same("White lost on time", [clocked.over, clocked.winner, clocked.flagged], [true, "black", true]);
  same("no move after the flag", clocked.play(parseMove("g1-g2/g3", 10)!), false);
  same("the record says time", clocked.record().result, { winner: "black", reason: "time" });
  same("the record's clock", clocked.record().time, { initial: 180, increment: 2 });
  same("a flag is kept", ComputerGame.restore(JSON.stringify(clocked.saved()), () => now)!.flagged, true);
  const free = new ComputerGame({ rules: "standard", level: "easy", color: "white" });
  same("no clock: no time", [free.remaining("white"), free.timed, free.checkFlag()], [null, false, false]);
}

// Info lines, as amazons-engine writes them.
same("a value", parseInfo("info depth 7 score -130 nodes 5 nps 5 time 1 pv d1-d7/g7 a7-b7/c7"),
  { depth: 7, multipv: 1, score: { kind: "value", value: -130 }, pv: ["d1-d7/g7", "a7-b7/c7"] });
same("a win", parseInfo("info depth 1 score win 1 nodes 1 nps 1 time 0 pv c3-c2/c3"), { depth: 1, multipv: 1, score: { kind: "win", plies: 1 }, pv: ["c3-c2/c3"] });
same("a loss", parseInfo("info depth 4 score loss 4 nodes 1 nps 1 time 0 pv a1-b1/a1"), { depth: 4, multipv: 1, score: { kind: "loss", plies: 4 }, pv: ["a1-b1/a1"] });
same("the third line", parseInfo("info depth 5 multipv 3 score 12 nodes 9 nps 9 time 1 pv a7-b7/c7"), { depth: 5, multipv: 3, score: { kind: "value", value: 12 }, pv: ["a7-b7/c7"] });
same("not info", parseInfo("bestmove d1-d7/g7"), null);
same("no score", parseInfo("info string hello"), null);

// Scores in words, for the side ahead.
const info = (score: { kind: "value"; value: number } | { kind: "win" | "loss"; plies: number }) => ({ depth: 1, multipv: 1, score, pv: [] });
same("ahead", scoreText(info({ kind: "value", value: 130 }), "white"), "White +1.3");
same("behind", scoreText(info({ kind: "value", value: -130 }), "white"), "Black +1.3");
same("black ahead", scoreText(info({ kind: "value", value: 250 }), "black"), "Black +2.5");
same("even", scoreText(info({ kind: "value", value: 4 }), "white"), "Even");
same("win", scoreText(info({ kind: "win", plies: 3 }), "black"), "Black wins in 2");
same("loss", scoreText(info({ kind: "loss", plies: 2 }), "black"), "White wins in 1");

// The review's judgement, as ai/analysis.cpp's (squares to hundredths, decided +-100, marks at 2
// and 5 squares lost).
const value = (v: number) => ({ depth: 5, multipv: 1, score: { kind: "value" as const, value: v }, pv: [] });
same("squares", squaresOf(value(-237)), -2.37);
same("counted endgame", squaresOf(value(10450)), 100);
same("counted loss", squaresOf(value(-10020)), -100);
same("proven win", squaresOf({ depth: 3, multipv: 1, score: { kind: "win", plies: 3 }, pv: [] }), 100);
same("proven loss", squaresOf({ depth: 3, multipv: 1, score: { kind: "loss", plies: 2 }, pv: [] }), -100);
same("no search", squaresOf(null), 0);
same("no mark", markFor(1.99), null);
same("mistake", markFor(2), "mistake");
same("still a mistake", markFor(4.99), "mistake");
same("blunder", markFor(5), "blunder");
// Marks only where the choice mattered (ANALYSIS_SQUARES.decisive, 20): as mark_for's doctest.
same("balanced: the loss decides", markOfMove(3, -2), "blunder");
same("lost already", markOfMove(-20, -50), null);
same("lost already, proven", markOfMove(-100, -100), null);
same("not yet lost", markOfMove(-19, -50), "blunder");
same("won and still won", markOfMove(100, 20), null);
same("a smaller lead still winning", markOfMove(30, 20), null);
same("the win thrown away", markOfMove(100, 19), "blunder");
same("a lead given up", markOfMove(23, 19), "mistake");
// A proof on one side of a position is given to the other, and the moves judged again.
const ply = (before: number, after: number, best: string | null, mark: Mark = null): PlyReview => ({ before, after, best, mark });
const previous = ply(3, 2, "a1-a2/a3"), next = ply(100, 50, null);
same("a proof shared back", shareProof(previous, next), true);
same("the move before lost", previous.after, -100);
same("and is a blunder", previous.mark, "blunder");
same("agreed", shareProof(previous, next), false);
const won = ply(40, 100, "a1-a2/a3"), missed = ply(-30, -35, "b1-b2/b3", "blunder");
same("a proof shared forward", shareProof(won, missed), true);
same("the next mover lost", missed.before, -100);
same("lost whatever it played", missed.mark, null);
same("neither proven", shareProof(ply(1, 4, null), ply(-2, -3, null)), false);

if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log("computer_check: ok");
