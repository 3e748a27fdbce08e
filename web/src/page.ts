// The page as the handlers of the server's messages see it (server_events.ts, server_errors.ts):
// its state, its parts and what they may ask of it. main.ts's App is the one page.
import type { ClientMessage } from "@protocol";
import type { GameScreen } from "./game_screen";
import type { LobbyPage } from "./lobby_page";
import type { Notices } from "./notices";
import type { ReplayScreen } from "./replay_screen";
import type { Route } from "./routes";
import type { SignInScreen } from "./signin_screen";
import type { Sounds } from "./sound";
import type { Pending, Store } from "./store";

// The screens drawn from the store alone, shown again when what they show changes.
export type StoreScreen = "archive" | "tournament" | "leaderboard" | "replay";

export interface Page {
  readonly store: Store;
  readonly sounds: Sounds;
  readonly notices: Notices;
  readonly game: GameScreen;
  readonly lobby: LobbyPage;
  readonly signIn: SignInScreen;
  readonly replay: ReplayScreen;
  readonly route: Route;
  readonly screen: string; // the screen shown

  send(m: ClientMessage, what?: Pending): boolean;
  watch(game: string, invite?: string): void;
  followRoute(): void; // after signing in: what the address names
  render(): void; // the screen the address names, again
  renderHeader(): void;
  redraw(screen: StoreScreen): void; // that screen again, if it is the one shown
  tournamentAnswered(problem: string | null): void; // the creation form's answer
  reconnect(why: string): void;
  stop(detail: string): void; // the connection closed for good (replaced by another tab)
}
