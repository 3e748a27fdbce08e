// The page's state that more than one screen reads: who is signed in, the connection, the games
// this page knows and the lobby's lists. The App's handlers of the server's messages change it and
// then render the screens that show it; the screens only read it (a game screen also marks its own
// game's moves as sent). Nothing here decides a game: the server does.
import type { GameSummary, LeaderboardEntry, OnlinePlayer, ServerMessageOf } from "@protocol";
import type { LinkState } from "./connection";
import type { GameModel } from "./game";
import { Tournaments } from "./tournaments";
import { YourTurns } from "./your_turn";

// What a request was for, so its error or answer can be put in context.
export type Pending =
  | { kind: "hello"; withToken: boolean }
  | { kind: "join"; game: string; invite?: string }
  | { kind: "watch"; game: string }
  | { kind: "invite"; game: string } // an invite looked at before signing in
  | { kind: "move"; game: string }
  | { kind: "record-json"; game: string }
  | { kind: "record-text"; game: string }
  | { kind: "tournament-join" | "tournament-withdraw"; tournament: number }
  | { kind: "tournament-create" }
  | { kind: "other"; what: string };

export class Store {
  // The player signed in on this page (null: a visitor), and their rating as the server last said.
  me: string | null = null;
  myRating = 1500;
  linkState: LinkState = "connecting";
  linkDetail = "";

  // Games: every game this page follows, by id; its invite codes; the games the player has a seat
  // in; the one on the screen; the open game the player created and waits in.
  games = new Map<string, GameModel>();
  invites = new Map<string, string>();
  myGames = new Set<string>();
  current: string | null = null;
  waiting: { game: string; invite?: string } | null = null;

  // The lobby's lists, as the server last sent them.
  openGames: GameSummary[] = [];
  players: OnlinePlayer[] = [];
  leaderboard: LeaderboardEntry[] = [];
  challenges = new Map<string, ServerMessageOf<"challenge">>();
  seeking: ServerMessageOf<"seeking"> | null = null;
  yourTurns = new YourTurns();
  tournaments = new Tournaments();
  history: ServerMessageOf<"history"> | null = null;

  // Signing out forgets the player's games.
  signedOut(): void {
    this.me = null;
    this.games.clear();
    this.myGames.clear();
    this.yourTurns.clear();
    this.current = null;
  }
}
