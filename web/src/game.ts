// One game as the page knows it: built from the server's start or state, advanced by moved and
// end. The server is the authority: a move it reports that does not fit (a gap, an illegal move)
// makes the page ask for the whole state again instead of guessing.
import type {
  Clock,
  Color,
  EndReason,
  GameStatus,
  Player,
  RatingChange,
  ServerMessageOf,
  TimeControl,
  Variant,
} from "@protocol";
import { formatNumber, has, t } from "./i18n";
import { Premove } from "./premove";
import { Board, Move, parseMove, replay } from "./rules";

export interface ChatLine {
  from: string;
  text: string;
}

export class GameModel {
  id: string;
  rules: string;
  variant: Variant;
  board: Board;
  moves: string[] = [];
  played: Move[] = [];
  white?: Player;
  black?: Player;
  time: TimeControl = null;
  rated = false;
  status: GameStatus = "open";
  color?: Color;
  clock?: Clock;
  clockAt = 0; // performance.now() when `clock` arrived
  result?: { winner?: Color; reason: EndReason };
  ratings: { white?: RatingChange; black?: RatingChange } = {};
  spectators = 0;
  offline: Color[] = [];
  claimAt?: number; // performance.now() after which the opponent may claim
  chat: ChatLine[] = [];
  invite?: string;
  rematchSent = false;
  rematchFrom?: string;
  moveSent = false;
  premove = new Premove(); // this seat's move entered while the opponent thinks
  problem?: string;

  private constructor(id: string, rules: string, variant: Variant) {
    this.id = id;
    this.rules = rules;
    this.variant = variant;
    this.board = Board.fromVariant(variant);
  }

  static fromStart(m: ServerMessageOf<"start">): GameModel {
    const g = new GameModel(m.game, m.rules, m.variant);
    g.white = m.white;
    g.black = m.black;
    g.time = m.time;
    g.rated = m.rated;
    g.color = m.color;
    g.status = "active";
    g.setClock(m.clock);
    return g;
  }

  static fromState(m: ServerMessageOf<"state">, previous?: GameModel): GameModel {
    const g = new GameModel(m.game, m.rules, m.variant);
    if (previous && previous.id === m.game) {
      g.chat = previous.chat;
      g.invite = previous.invite;
      g.rematchSent = previous.rematchSent;
      g.rematchFrom = previous.rematchFrom;
      g.ratings = previous.ratings;
      if (m.status === "active") g.premove = previous.premove;
    }
    g.white = m.white;
    g.black = m.black;
    g.time = m.time;
    g.rated = m.rated;
    g.status = m.status;
    g.color = m.color;
    g.spectators = m.spectators;
    g.offline = m.offline;
    g.result = m.result;
    const r = replay(m.variant, m.moves);
    g.board = r.board;
    g.played = r.played;
    g.moves = m.moves.slice(0, r.played.length);
    if (r.error) g.problem = t("game.problem.record_does_not_replay", { error: r.error });
    g.setClock(m.clock);
    return g;
  }

  setClock(c: Clock | undefined): void {
    this.clock = c;
    this.clockAt = performance.now();
  }

  // Milliseconds left for `side` now, counting down the running clock locally.
  remaining(side: Color): number | null {
    if (!this.clock) return null;
    const base = this.clock[side];
    if (this.clock.running !== side || this.status !== "active") return base;
    return base - (performance.now() - this.clockAt);
  }

  lastMove(): Move | null {
    return this.played.length > 0 ? this.played[this.played.length - 1] : null;
  }

  myTurn(): boolean {
    return this.status === "active" && this.color !== undefined && this.board.toMove === this.color;
  }

  // A move entered now is a premove: the opponent is to move and ours is not in flight.
  opponentThinking(): boolean {
    return this.status === "active" && this.color !== undefined && this.board.toMove !== this.color && !this.moveSent;
  }

  player(c: Color): Player | undefined {
    return c === "white" ? this.white : this.black;
  }

  // "ok": applied; "old": already known; "resync": the page must ask for the state.
  applyMoved(m: ServerMessageOf<"moved">): "ok" | "old" | "resync" {
    if (m.ply <= this.moves.length) return this.moves[m.ply - 1] === m.move ? "old" : "resync";
    if (m.ply !== this.moves.length + 1) return "resync";
    const mv = parseMove(m.move, this.board.size);
    if (!mv || !this.board.play(mv)) return "resync";
    this.moves.push(m.move);
    this.played.push(mv);
    this.setClock(m.clock);
    this.moveSent = false;
    return "ok";
  }

  applyEnd(m: ServerMessageOf<"end">): void {
    this.status = "finished";
    this.premove.cancel();
    this.result = { winner: m.winner, reason: m.reason };
    this.ratings = { white: m.white_rating, black: m.black_rating };
    if (this.clock) this.setClock({ white: this.remaining("white") ?? 0, black: this.remaining("black") ?? 0 });
    this.moveSent = false;
  }
}

export function sideName(c: Color): string {
  return c === "white" ? t("side.white") : t("side.black");
}

// The result in the words of `you` (a player of the game: "You won") or of a spectator.
export function resultTitle(r: { winner?: Color }, you?: Color): string {
  if (!r.winner) return t("result.aborted");
  if (you) return r.winner === you ? t("result.you_won") : t("result.you_lost");
  return t("result.side_wins", { side: sideName(r.winner) });
}

// Why the game ended, as the desktop client says it (client/game_text.cpp).
export function resultReason(r: { winner?: Color; reason: EndReason }): string {
  const loser = r.winner ? sideName(r.winner === "white" ? "black" : "white") : "";
  switch (r.reason) {
    case "no_moves":
      return t("result.reason.no_moves", { loser });
    case "resign":
      return t("result.reason.resign", { loser });
    case "time":
      return t("result.reason.time", { loser });
    case "abandon":
      return t("result.reason.abandon", { loser });
    case "aborted":
      return t("result.reason.aborted");
    case "illegal_move":
      return t("result.reason.illegal_move", { loser });
    case "adjudicated":
      return t("result.reason.adjudicated");
  }
}

export function timeText(tc: TimeControl): string {
  if (tc === null) return t("time.no_clock");
  if ("per_move" in tc)
    return tc.per_move >= 86400 && tc.per_move % 86400 === 0 ? t("time.days_per_move", { days: tc.per_move / 86400 }) : t("time.seconds_per_move", { seconds: tc.per_move });
  const minutes = formatNumber(tc.initial / 60, { maximumFractionDigits: 1 });
  return tc.increment > 0 ? t("time.minutes_increment", { minutes, increment: tc.increment }) : t("time.minutes", { minutes });
}

// A time control as the forms offer it: "No clock", "1 day per move", else as timeText says it.
export function timeChoiceText(tc: TimeControl): string {
  if (tc === null) return t("time.no_clock_choice");
  if ("per_move" in tc && tc.per_move >= 86400 && tc.per_move % 86400 === 0) return t("time.choice.days_per_move", { days: tc.per_move / 86400 });
  return timeText(tc);
}

export function playerText(p: Player | undefined): string {
  if (!p) return t("player.open_seat");
  return t(p.bot ? "player.bot_with_rating" : "player.with_rating", { name: p.name, rating: p.rating });
}

// A rule variant's name for people ("standard" is 标准 in zh-CN); one no catalogue names is its code.
export function rulesName(code: string): string {
  return has(`rules.${code}`) ? t(`rules.${code}`) : code;
}

// "rated" or "casual".
export function ratedText(rated: boolean): string {
  return rated ? t("game.rated") : t("game.casual");
}

// The time controls offered when creating a game or a tournament.
// Their labels are timeChoiceText's.
export const TIME_CHOICES: { time: TimeControl }[] = [
  { time: null },
  { time: { initial: 180, increment: 2 } },
  { time: { initial: 300, increment: 5 } },
  { time: { initial: 600, increment: 10 } },
  { time: { initial: 1800, increment: 0 } },
  { time: { per_move: 30 } },
  { time: { per_move: 86400 } },
];
