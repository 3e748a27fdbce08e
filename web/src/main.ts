// The web client's page: one WebSocket to the server, the routes (#/...) and the screen each
// shows, the header and the notices. The screens are modules of their own (signin_screen.ts,
// lobby_page.ts, game_screen.ts, replay_screen.ts, local_screens.ts, ...) that draw from the store
// (store.ts); the server's messages change it (server_events.ts, server_errors.ts). Nothing here
// decides a game: the server checks every request and this page shows what it says.
import { PROTOCOL_VERSION, type ClientMessage, type RequestId, type ServerMessage } from "@protocol";
import { archiveView } from "./archive_screen";
import { Link, type LinkState, defaultUrl } from "./connection";
import { replaceChildren, h } from "./dom";
import type { GameModel } from "./game";
import { GameScreen } from "./game_screen";
import { renderHeader, updateTab } from "./header";
import { t } from "./i18n";
import { LEADERBOARD_PAGE, LobbyPage, leaderboardView } from "./lobby_page";
import { LocalScreens } from "./local_screens";
import { Notices } from "./notices";
import type { Page, StoreScreen } from "./page";
import { ReplayScreen } from "./replay_screen";
import { type Route, isLocal, parseRoute } from "./routes";
import { ServerEvents } from "./server_events";
import { forgetSession, loadSession } from "./session";
import { loadSettings } from "./settings";
import { SignInScreen } from "./signin_screen";
import { Sounds } from "./sound";
import { type Pending, Store } from "./store";
import { TournamentForm } from "./tournament_form";

// How often the first screen asks for the games being played, and a tournament's countdown redraws.
const LIVE_GAMES_REFRESH_MS = 5000;
const COUNTDOWN_MS = 1000;

class App implements Page {
  readonly store = new Store();
  readonly sounds = new Sounds();
  readonly notices = new Notices();
  readonly game: GameScreen;
  readonly lobby: LobbyPage;
  readonly signIn: SignInScreen;
  readonly replay: ReplayScreen;
  private readonly local: LocalScreens;
  private readonly events = new ServerEvents(this);
  private tournamentForm: TournamentForm | null = null;
  private readonly link: Link;
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  route: Route = parseRoute(location.hash);
  screen = "";
  private readonly header = h("header", { class: "top" });
  private readonly main = h("main", { id: "screen" });
  private lastLiveGames = 0;
  private lastCountdown = 0;

  // For the browser tests, which read the page's model: the games, the one on the screen, and
  // the game against the computer.
  get games(): Map<string, GameModel> {
    return this.store.games;
  }
  get current(): string | null {
    return this.store.current;
  }
  get computer(): LocalScreens["computer"] {
    return this.local.computer;
  }

  constructor(root: HTMLElement) {
    const notify = (text: string, error?: boolean) => this.notices.show(text, error);
    this.game = new GameScreen(this.store, {
      send: (m, what) => this.send(m, what),
      notify,
      setScreen: (name, ...children) => this.setScreen(name, ...children),
      onGameScreen: () => this.screen === "game",
      sounds: this.sounds,
    });
    this.lobby = new LobbyPage(this.store, { send: (m, what) => this.send(m, what), notify, isOpen: () => this.link.isOpen(), shown: () => this.screen === "lobby" });
    this.signIn = new SignInScreen(this.store, () => {
      this.render();
      if (this.link.isOpen()) this.hello();
    });
    this.local = new LocalScreens({
      setScreen: (name, el) => this.setScreen(name, el),
      screen: () => this.screen,
      signedIn: () => this.store.me !== null,
      settingsChanged: () => this.renderHeader(),
      sounds: this.sounds,
    });
    this.replay = new ReplayScreen({
      pageEngine: () => this.local.pageEngine(),
      show: (el) => this.setScreen("replay", el),
      exportRecord: (game) => this.exportRecord(game),
      notify,
      territory: () => this.game.territoryShown(),
    });
    replaceChildren(root, this.header, this.notices.el, this.main);
    this.link = new Link(defaultUrl(), {
      open: () => this.hello(),
      message: (m) => this.onMessage(m),
      state: (s, d) => this.onLinkState(s, d),
    });
    window.addEventListener("hashchange", () => {
      this.route = parseRoute(location.hash);
      this.followRoute();
    });
    window.addEventListener("keydown", (e) => {
      if (this.screen === "game") this.game.key(e);
      if (this.screen === "replay" && !(e.target instanceof HTMLInputElement)) {
        if (e.key === "ArrowLeft") this.replay.step(-1);
        if (e.key === "ArrowRight") this.replay.step(1);
      }
    });
    window.setInterval(() => this.tick(), 100);
    updateTab(this.store);  // the tab's title in the page's language from the start
    this.renderHeader();
    this.render();
    this.link.start();
  }

  // ---- the wire ----

  send(m: ClientMessage, what: Pending = { kind: "other", what: m.type }): boolean {
    const id = this.nextId++;
    if (!this.link.send({ ...m, id } as ClientMessage)) {
      this.notices.show(t("connection.not_connected"), true);
      return false;
    }
    this.pending.set(id, what);
    return true;
  }

  private onMessage(m: ServerMessage): void {
    const ctx = m.id !== undefined ? this.pending.get(m.id) : undefined;
    if (m.id !== undefined) this.pending.delete(m.id);
    this.events.on(m, ctx);
  }

  private onLinkState(s: LinkState, detail: string): void {
    this.store.linkState = s;
    this.store.linkDetail = detail;
    if (s !== "open") this.store.seeking = null;
    this.renderHeader();
    if (this.screen === "game") this.game.render();
  }

  // Connected: the sign-in under way (with the saved token when it is the saved name and no
  // password was typed), or the saved session again after a reconnect, or a visitor's look.
  private hello(): void {
    const session = loadSession();
    const signingIn = this.signIn.signingIn;
    const name = signingIn?.name ?? (this.store.me && session ? session.name : null);
    if (name === null) return this.lookAround();
    const token = session && session.name === name && !signingIn?.password ? session.token : undefined;
    this.link.send({ type: "hello", protocol: PROTOCOL_VERSION, name, password: signingIn?.password, token, id: 0 });
    this.pending.set(0, { kind: "hello", withToken: token !== undefined });
  }

  // Signed out: what the server shows a visitor (docs/PROTOCOL.md, before hello): the games being
  // played for the first screen, the game the address names, or the invite's game.
  private lookAround(): void {
    if (!this.link.isOpen() || this.store.me || this.signIn.signingIn) return;
    this.lastLiveGames = performance.now();
    this.send({ type: "list" });
    const r = this.route;
    if (r.kind === "game") this.watch(r.game);
    if (r.kind === "join") {
      this.store.invites.set(r.game, r.invite);
      this.signIn.invite = { game: r.game, problem: null };
      this.send({ type: "watch", game: r.game, invite: r.invite }, { kind: "invite", game: r.game });
    }
  }

  watch(game: string, invite?: string): void {
    const code = invite ?? this.store.invites.get(game);
    if (code) this.store.invites.set(game, code);
    this.send({ type: "watch", game, invite: code }, { kind: "watch", game });
  }

  reconnect(why: string): void {
    this.link.reconnect(why);
  }

  stop(detail: string): void {
    this.link.stop(detail);
  }

  // ---- routes and screens ----

  // The address changed, or the player signed in: ask the server for what the screen shows.
  followRoute(): void {
    if (!this.store.me) return this.followRouteSignedOut();
    const r = this.route;
    if (r.kind === "join") {
      this.store.invites.set(r.game, r.invite);
      this.send({ type: "join", game: r.game, invite: r.invite }, { kind: "join", game: r.game, invite: r.invite });
      history.replaceState(null, "", `#/game/${r.game}`);
      this.route = { kind: "game", game: r.game };
    }
    const route = this.route;
    if (route.kind === "game") {
      if (this.store.current !== route.game) {
        this.store.current = route.game;
        if (r.kind !== "join") this.watch(route.game);
      }
    } else {
      // A game only watched is left with its screen.
      const current = this.store.current;
      const watched = current !== null && !this.store.myGames.has(current) && this.store.games.get(current)?.color === undefined;
      if (watched && this.store.games.has(current)) this.send({ type: "leave", game: current });
      this.store.current = null;
    }
    if (route.kind === "archive") this.send({ type: "history", player: route.player, limit: 100 });
    if (route.kind === "leaderboard") this.send({ type: "leaderboard", limit: LEADERBOARD_PAGE });
    if (route.kind === "replay") {
      this.replay.asked();
      this.send({ type: "record", game: route.game, format: "json", invite: this.store.invites.get(route.game) }, { kind: "record-json", game: route.game });
    }
    if (route.kind === "lobby") this.lobby.refresh(true);
    if (route.kind === "tournament") this.send({ type: "tournament", tournament: route.id });
    this.render();
  }

  // A visitor may watch the game the address names; an invite is looked up first and shown with
  // the sign-in form; any other screen that needs a name is the first screen.
  private followRouteSignedOut(): void {
    const r = this.route;
    const game = r.kind === "game" ? r.game : null;
    if (this.store.current && this.store.current !== game) {
      if (this.link.isOpen()) this.send({ type: "leave", game: this.store.current });
      this.store.games.delete(this.store.current);
    }
    this.store.current = game;
    if (r.kind !== "join") this.signIn.invite = null;
    if (this.link.isOpen() && !this.signIn.signingIn) {
      if (game && !this.store.games.has(game)) this.watch(game);
      if (r.kind === "join" && this.signIn.invite?.game !== r.game) this.lookAround();
    }
    this.render();
  }

  render(): void {
    const r = this.route;
    if (isLocal(r)) {
      this.route = this.local.show(r);
      return;
    }
    if (!this.store.me) {
      if (r.kind === "game" && this.store.current && !this.signIn.signingIn) return this.game.show(this.store.current);
      return this.setScreen("signin", this.signIn.view(r));
    }
    switch (r.kind) {
      case "lobby":
        return this.setScreen("lobby", this.lobby.view());
      case "game":
      case "join":
        return this.store.current ? this.game.show(this.store.current) : this.setScreen("lobby", this.lobby.view());
      case "tournament-new":
        this.tournamentForm ??= new TournamentForm((x) => this.send({ type: "tournament_create", ...x }, { kind: "tournament-create" }));
        return this.setScreen("tournament-new", this.tournamentForm.el);
      default:
        return this.draw(r.kind);
    }
  }

  redraw(screen: StoreScreen): void {
    if (this.screen === screen) this.draw(screen);
  }

  // The screens drawn from the store alone.
  private draw(screen: StoreScreen): void {
    const r = this.route;
    if (screen === "replay") return this.replay.render(r.kind === "replay" ? r.game : null);
    if (screen === "leaderboard") return this.setScreen("leaderboard", leaderboardView(this.store));
    if (screen === "tournament") {
      if (r.kind !== "tournament") return;
      this.lastCountdown = performance.now();
      return this.setScreen("tournament", this.store.tournaments.view(r.id, this.store.me, Date.now(), {
        join: (id) => this.send({ type: "tournament_join", tournament: id }, { kind: "tournament-join", tournament: id }),
        withdraw: (id) => this.send({ type: "tournament_withdraw", tournament: id }, { kind: "tournament-withdraw", tournament: id }),
      }));
    }
    const me = this.store.me!;
    const who = r.kind === "archive" && r.player ? r.player : me;
    const rating = who === me ? this.store.myRating : [...this.store.players, ...this.store.leaderboard].find((p) => p.name === who)?.rating ?? null;
    this.setScreen("archive", archiveView(this.store.history, who, who === me, rating, (game) => this.exportRecord(game)));
  }

  // The server's text record, downloaded when it comes (server_events.ts).
  private exportRecord(game: string): void {
    this.send({ type: "record", game, format: "text", invite: this.store.invites.get(game) }, { kind: "record-text", game });
  }

  tournamentAnswered(problem: string | null): void {
    this.tournamentForm?.answered(problem);
  }

  private setScreen(name: string, ...children: HTMLElement[]): void {
    this.local.left(name);
    if (name !== "replay") this.replay.leave();
    this.screen = name;
    this.main.dataset.screen = name;
    replaceChildren(this.main, ...children);
  }

  renderHeader(): void {
    renderHeader(this.header, this.store, this.sounds, { signOut: () => this.signOut(), redraw: () => this.renderHeader() });
  }

  private signOut(): void {
    forgetSession();
    this.store.signedOut();
    this.link.reconnect("signed out");
    this.renderHeader();
    this.render();
  }

  // Every 100 ms: the clocks, the tab's title, the lists kept fresh, a tournament's countdown.
  private tick(): void {
    this.local.tick();
    updateTab(this.store);
    if (this.screen === "game") this.game.tick();
    this.lobby.tick();
    if (this.screen === "signin" && !this.store.me && !this.signIn.signingIn && this.link.isOpen() && performance.now() - this.lastLiveGames > LIVE_GAMES_REFRESH_MS) {
      this.lastLiveGames = performance.now();
      this.send({ type: "list" });
    }
    if (this.screen === "tournament" && performance.now() - this.lastCountdown > COUNTDOWN_MS) this.draw("tournament");
  }
}

declare global {
  interface Window {
    amazons?: App;
  }
}

// The theme, the board's colours and the coordinates, before anything is drawn.
loadSettings();
const root = document.getElementById("app");
if (root) window.amazons = new App(root);
