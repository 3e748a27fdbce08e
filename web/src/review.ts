// The review of a finished game by the engine in the page: the same judgement as `amazons-engine
// analyse` (ai/analysis.cpp, docs/GAME_RECORD.md "Analysis"). Each position is searched; a move
// that is not the engine's is then searched one ply less deep than the engine's, so that both
// scores look equally far ahead; the difference in squares of territory marks a mistake or a
// blunder at the thresholds the C++ code defines (ANALYSIS_SQUARES, generated from it), where the
// choice mattered; a proof found at one ply is shared with the ply before or after it.
import { ANALYSIS_SQUARES, type Variant } from "@protocol";
import { BrowserEngine, EngineInfo } from "./engine";
import { Board, positionText, replay } from "./rules";

export type Mark = "mistake" | "blunder" | null;

export interface PlyReview {
  before: number; // squares for the mover before the move, with the engine's best move
  after: number; // squares for the mover after the move played
  best: string | null; // the engine's move when it is not the one played
  mark: Mark;
}

// Scores above this are counted endgames (docs/ENGINE_PROTOCOL.md), exact like proven results.
const COUNTED_SCORE = 10000;
const REVIEW_LEVEL = "hard"; // as amazons-engine analyse: the hard level's search

export function decided(info: EngineInfo): boolean {
  return info.score.kind !== "value" || Math.abs(info.score.value) >= COUNTED_SCORE;
}

// A search's score in squares for the side to move, to hundredths; a decided one is +-decided.
export function squaresOf(info: EngineInfo | null): number {
  if (!info) return 0;
  const s = info.score;
  if (s.kind !== "value") return s.kind === "win" ? ANALYSIS_SQUARES.decided : -ANALYSIS_SQUARES.decided;
  if (Math.abs(s.value) >= COUNTED_SCORE) return s.value > 0 ? ANALYSIS_SQUARES.decided : -ANALYSIS_SQUARES.decided;
  return Math.round(s.value) / 100;
}

export function markFor(squaresLost: number): Mark {
  if (squaresLost >= ANALYSIS_SQUARES.blunder) return "blunder";
  if (squaresLost >= ANALYSIS_SQUARES.mistake) return "mistake";
  return null;
}

// The mark of a move played instead of the engine's (ai/analysis.cpp's mark_for): none where the
// game was decided whichever move was played, lost already or won before and still won after.
export function markOfMove(before: number, after: number): Mark {
  const decisive = ANALYSIS_SQUARES.decisive;
  if (before <= -decisive) return null;
  if (before >= decisive && after >= decisive) return null;
  return markFor(before - after);
}

const proven = (squares: number) => Math.abs(squares) >= ANALYSIS_SQUARES.decided;
const judge = (p: PlyReview) => (p.mark = p.best === null ? null : markOfMove(p.before, p.after));

// `previous`'s after and `next`'s before are one position seen by either side: a proof found on
// one side and missed on the other is given to it, and both moves are judged again (as
// ai/analysis.cpp's share_proof). True when a score changed.
export function shareProof(previous: PlyReview, next: PlyReview): boolean {
  if (proven(previous.after) === proven(next.before)) return false;
  if (proven(previous.after)) next.before = -previous.after;
  else previous.after = -next.before;
  judge(previous);
  judge(next);
  return true;
}

export interface ReviewRun {
  cancel(): void;
  // Every ply's review, or null when cancelled.
  done: Promise<PlyReview[] | null>;
}

// Reviews `moves` from the variant's start, `movetimeMs` a search; `progress(done, total)` before
// the first ply and after each, never before this returns.
export function reviewGame(engine: BrowserEngine, variant: Variant, moves: readonly string[], movetimeMs: number,
  progress: (done: number, total: number) => void): ReviewRun {
  let cancelled = false;
  const run = async (): Promise<PlyReview[] | null> => {
    const game = replay(variant, moves);
    if (game.error) throw new Error(game.error);
    const out: PlyReview[] = [];
    let board = Board.fromVariant(variant);
    progress(0, moves.length);
    for (let i = 0; i < moves.length; ++i) {
      if (cancelled) return null;
      const searched = await engine.search(positionText(board), REVIEW_LEVEL, `movetime ${movetimeMs}`);
      const before = squaresOf(searched.last);
      const next = board.clone();
      next.play(game.played[i]);
      let after = before;
      let best: string | null = null;
      if (searched.best !== moves[i]) {
        best = searched.best;
        if (!next.hasMove(next.toMove)) {
          after = ANALYSIS_SQUARES.decided; // the opponent cannot move
        } else {
          if (cancelled) return null;
          const depth = searched.last && !decided(searched.last) ? ` depth ${Math.max(1, searched.last.depth - 1)}` : "";
          const reply = await engine.search(positionText(next), REVIEW_LEVEL, `movetime ${movetimeMs}${depth}`);
          after = -squaresOf(reply.last);
        }
      }
      const ply: PlyReview = { before, after, best, mark: null };
      judge(ply);
      if (out.length > 0) shareProof(out[out.length - 1], ply);
      out.push(ply);
      board = next;
      progress(i + 1, moves.length);
    }
    return out;
  };
  return {
    cancel: () => {
      cancelled = true;
      engine.stop();
    },
    done: Promise.resolve().then(run), // begins after the caller has the run in hand
  };
}
