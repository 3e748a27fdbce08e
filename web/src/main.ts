// The web client: sign-in, lobby and game screens over one WebSocket, and the page's routes to
// the other screens (each in a module of its own: archive_screen.ts, replay_screen.ts, ...). The
// screens read the state below and the server's messages change it; nothing here decides a
// game: the server checks every request and this page shows what it says.
import {
  BUILTIN_VARIANTS,
  PROTOCOL_VERSION,
  type ClientMessage,
  type RequestId,
  type ServerMessage,
  type ServerMessageOf,
} from "@protocol";
import { BoardView } from "./board_view";
import { ComputerScreen } from "./computer_screen";
import { archiveView } from "./archive_screen";
import { ReplayScreen } from "./replay_screen";
import { AnalysisScreen } from "./analysis_screen";
import { Sounds, moveSounds } from "./sound";
import { LessonScreen } from "./lesson";
import { SettingsScreen, loadSettings } from "./settings";
import { notifyWhenHidden } from "./notify";
import { BrowserEngine } from "./engine";
import { Link, LinkState, defaultUrl } from "./connection";
import { download, h, replaceChildren } from "./dom";
import { icon } from "./icons";
import { GameModel, playerText, ratedText, resultReason, resultTitle, rulesName, sideName, timeText } from "./game";
import { errorText } from "./errors";
import { t } from "./i18n";
import { MoveInput } from "./input";
import { Board, other, parseMove } from "./rules";
import { LobbyScreen, leaderTable } from "./lobby_screen";
import { TournamentForm } from "./tournament_form";
import { isCorrespondence } from "./your_turn";
import { GameScreen } from "./game_screen";
import { Pending, Store } from "./store";
import { inviteView, liveGamesView } from "./visitor";

const SESSION_KEY = "amazons.session";
const LOBBY_REFRESH_MS = 5000;
const LEADERBOARD_REFRESH_MS = 30_000;
const LEADERBOARD_PAGE = 100;
const NOTICE_MS = 10_000;

// The tab's icon: a queen on the accent colour; with a red dot while a game waits for your move.
function tabIcon(yourMove: boolean): string {
  const dot = yourMove ? '<circle cx="50" cy="14" r="13" fill="#d23c2c" stroke="#fff" stroke-width="3"/>' : "";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><desc>${yourMove ? "your move" : "amazons"}</desc>` +
    '<circle cx="32" cy="32" r="30" fill="#e2aa4c"/><path d="M16 44h32l3-20-10 8-9-14-9 14-10-8z" fill="#1e1a14"/>' + `${dot}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
interface Session {
  name: string;
  token: string;
}

type Route =
  | { kind: "lobby" }
  | { kind: "game"; game: string }
  | { kind: "join"; game: string; invite: string }
  | { kind: "archive"; player?: string }
  | { kind: "replay"; game: string }
  | { kind: "tournament"; id: number }
  | { kind: "tournament-new" }
  | { kind: "leaderboard" }
  | { kind: "computer" }
  | { kind: "analysis"; input?: string; ply?: number }
  | { kind: "learn" }
  | { kind: "settings" };

function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  if (parts[0] === "game" && parts[1]) return { kind: "game", game: parts[1] };
  if (parts[0] === "join" && parts[1] && parts[2]) return { kind: "join", game: parts[1], invite: parts[2] };
  if (parts[0] === "archive") return { kind: "archive", player: parts[1] || undefined };
  if (parts[0] === "replay" && parts[1]) return { kind: "replay", game: parts[1] };
  if (parts[0] === "computer") return { kind: "computer" };
  if (parts[0] === "learn") return { kind: "learn" };
  if (parts[0] === "settings") return { kind: "settings" };
  // #/analysis, or #/analysis/POSITION[/PLY]: a position text (with `moves ...`) or a move list,
  // URI-encoded, opened at PLY of its moves.
  if (parts[0] === "analysis") return { kind: "analysis", input: parts[1] || undefined, ply: /^\d{1,4}$/.test(parts[2] ?? "") ? Number(parts[2]) : undefined };
  if (parts[0] === "tournament" && /^\d{1,15}$/.test(parts[1] ?? "")) return { kind: "tournament", id: Number(parts[1]) };
  if (parts[0] === "tournaments" && parts[1] === "new") return { kind: "tournament-new" };
  if (parts[0] === "leaderboard") return { kind: "leaderboard" };
  return { kind: "lobby" };
}

function loadSession(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(SESSION_KEY) ?? "null") as Session | null;
    return s && typeof s.name === "string" && typeof s.token === "string" ? s : null;
  } catch {
    return null;
  }
}

class App {
  private link: Link;
  private nextId = 1;
  private pending = new Map<RequestId, Pending>();
  readonly store = new Store();
  private signingIn: { name: string; password?: string } | null = null;
  private signInError = "";
  private triedName = ""; // kept in the form after a refusal
  private guestName = ""; // offered to a first visitor
  // Before signing in: the invite's game being looked up, and why it cannot be shown.
  private invitePreview: { game: string; problem: string | null } | null = null;
  private liveSlot = h("div", { class: "live-slot" }); // the first screen's games being played
  private route: Route = parseRoute(location.hash);
  private lastLobbyRefresh = 0;
  private lastLeaderboard = 0;
  private turnsSeen = false; // the first list after signing in is shown without notices
  private lastTournamentRender = 0;

  // Page
  private root: HTMLElement;
  private header = h("header", { class: "top" });
  private notices = h("div", { class: "notices", id: "notices", "aria-live": "polite" });
  private main = h("main", { id: "screen" });
  private screen = "";
  readonly sounds = new Sounds();
  private readonly game: GameScreen;

  // For the browser tests, which read the page's model: the games and the one on the screen.
  get games(): Map<string, GameModel> {
    return this.store.games;
  }
  get current(): string | null {
    return this.store.current;
  }

  constructor(root: HTMLElement) {
    this.root = root;
    this.game = new GameScreen(this.store, {
      send: (m, what) => this.send(m, what),
      notify: (text, error) => this.notify(text, error),
      setScreen: (name, ...children) => this.setScreen(name, ...children),
      onGameScreen: () => this.screen === "game",
      sounds: this.sounds,
    });
    replaceChildren(this.root, this.header, this.notices, this.main);
    this.link = new Link(defaultUrl(), {
      open: () => this.onOpen(),
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
    const session = loadSession();
    if (session) this.signingIn = { name: session.name };
    this.renderHeader();
    this.render();
    this.link.start();
  }

  // ---- the wire ----

  send(m: ClientMessage, what: Pending = { kind: "other", what: m.type }): boolean {
    const id = this.nextId++;
    const withId = { ...m, id } as ClientMessage;
    if (!this.link.send(withId)) {
      this.notify(t("connection.not_connected"), true);
      return false;
    }
    this.pending.set(id, what);
    return true;
  }

  private onLinkState(s: LinkState, detail: string): void {
    this.store.linkState = s;
    this.store.linkDetail = detail;
    if (s !== "open") this.store.seeking = null;
    this.renderHeader();
    if (this.screen === "game") this.game.render();
  }

  private onOpen(): void {
    const session = loadSession();
    if (this.signingIn) {
      const token = session && session.name === this.signingIn.name && !this.signingIn.password ? session.token : undefined;
      this.link.send({
        type: "hello",
        protocol: PROTOCOL_VERSION,
        name: this.signingIn.name,
        password: this.signingIn.password,
        token,
        id: 0,
      });
      this.pending.set(0, { kind: "hello", withToken: token !== undefined });
    } else if (this.store.me && session) {
      this.link.send({ type: "hello", protocol: PROTOCOL_VERSION, name: session.name, token: session.token, id: 0 });
      this.pending.set(0, { kind: "hello", withToken: true });
    } else if (!this.store.me) {
      this.lookAround();
    }
  }

  // Signed out: what the server shows a visitor (docs/PROTOCOL.md, before hello): the games being
  // played for the first screen, the game the address names, or the invite's game.
  private lookAround(): void {
    if (!this.link.isOpen() || this.store.me || this.signingIn) return;
    this.lastLobbyRefresh = performance.now();
    this.send({ type: "list" });
    const r = this.route;
    if (r.kind === "game") this.watch(r.game);
    if (r.kind === "join") {
      this.store.invites.set(r.game, r.invite);
      this.invitePreview = { game: r.game, problem: null };
      this.send({ type: "watch", game: r.game, invite: r.invite }, { kind: "invite", game: r.game });
    }
  }

  private onMessage(m: ServerMessage): void {
    const ctx = m.id !== undefined ? this.pending.get(m.id) : undefined;
    if (m.id !== undefined) this.pending.delete(m.id);
    switch (m.type) {
      case "welcome":
        return this.onWelcome(m);
      case "error":
        return this.onError(m, ctx);
      case "games":
        this.store.openGames = m.games;
        if (!this.store.me) replaceChildren(this.liveSlot, liveGamesView(m.games));
        return this.renderLobbyLists();
      case "players":
        this.store.players = m.players;
        for (const p of m.players)
          if (p.name === this.store.me && p.rating !== this.store.myRating) {
            this.store.myRating = p.rating;
            this.renderHeader();
          }
        return this.renderLobbyLists();
      case "leaderboard":
        this.store.leaderboard = m.players;
        if (this.screen === "leaderboard") this.renderLeaderboard();
        return this.renderLobbyLists();
      case "created":
        this.store.waiting = { game: m.game, invite: m.invite };
        this.store.myGames.add(m.game);
        if (m.invite) this.store.invites.set(m.game, m.invite);
        location.hash = `#/game/${m.game}`;
        return;
      case "seeking":
        this.store.seeking = m;
        return this.renderLobbyLists();
      case "challenge":
        this.store.challenges.set(m.challenge, m);
        this.notify(t("challenge.received", { player: playerText(m.from), rules: rulesName(m.rules), time: timeText(m.time), rated: ratedText(m.rated) }), false, `challenge-${m.challenge}`);
        notifyWhenHidden(t("challenge.received.title", { player: m.from.name }), t("challenge.received.body", { rules: rulesName(m.rules), time: timeText(m.time), rated: ratedText(m.rated) }), `challenge-${m.challenge}`);
        return this.renderLobbyLists();
      case "challenge_sent":
        return this.notify(t("challenge.sent", { player: m.to }), false, `challenge-${m.challenge}`);
      case "challenge_closed":
        this.store.challenges.delete(m.challenge);
        this.notify(m.reason === "declined" ? t("challenge.declined") : t("challenge.withdrawn"), false, `challenge-${m.challenge}`);
        return this.renderLobbyLists();
      case "start":
        return this.onStart(m);
      case "state":
        return this.onState(m);
      case "moved":
        return this.onMoved(m);
      case "end":
        return this.onEnd(m);
      case "chat": {
        const g = this.store.games.get(m.game);
        if (g) g.chat.push({ from: m.from, text: m.text });
        if (m.game === this.store.current) this.game.renderChat();
        return;
      }
      case "presence": {
        const g = this.store.games.get(m.game);
        if (!g) return;
        g.offline = g.offline.filter((c) => c !== m.color);
        if (!m.online) g.offline.push(m.color);
        g.claimAt = !m.online && m.claim_in_ms !== undefined ? performance.now() + m.claim_in_ms : undefined;
        this.notify(m.online ? t("game.presence.online", { player: m.player }) : t("game.presence.offline", { player: m.player }));
        if (m.game === this.store.current) this.game.render();
        return;
      }
      case "rematch_offer": {
        const g = this.store.games.get(m.game);
        if (g) g.rematchFrom = m.from;
        this.notify(t("game.rematch.offered_by", { player: m.from }));
        if (m.game === this.store.current) this.game.render();
        return;
      }
      case "history":
        this.store.history = m;
        if (this.screen === "archive") this.renderArchive();
        return;
      case "record":
        return this.onRecord(m, ctx);
      case "your_turn":
        return this.onYourTurn(m);
      case "tournaments":
        this.store.tournaments.setList(m.tournaments);
        return this.renderLobbyLists();
      case "tournament":
        this.store.tournaments.setDetail(m);
        if (ctx?.kind === "tournament-create") {
          this.tournamentForm?.answered(null);
          location.hash = `#/tournament/${m.tournament.id}`;
          return;
        }
        if (this.screen === "tournament") this.renderTournament();
        return;
      case "ok":
        if (ctx?.kind === "other" && ctx.what === "unseek") this.store.seeking = null;
        if (ctx?.kind === "tournament-join" || ctx?.kind === "tournament-withdraw") {
          this.store.tournaments.setProblem(ctx.tournament, null);
          this.notify(ctx.kind === "tournament-join" ? t("tournament.joined") : t("tournament.withdrew"));
          if (this.screen === "tournament") this.renderTournament();
        }
        this.renderLobbyLists();
        return;
      case "shutdown":
        console.info("server shutting down:", m.message);
        return this.notify(t("connection.shutdown"), true);
      case "ping":
      case "pong":
        return;
    }
  }

  private onWelcome(m: ServerMessageOf<"welcome">): void {
    this.store.me = m.name;
    this.store.myRating = m.player.rating;
    this.signingIn = null;
    this.signInError = "";
    localStorage.setItem(SESSION_KEY, JSON.stringify({ name: m.name, token: m.token }));
    for (const g of m.games) this.store.myGames.add(g);
    this.store.yourTurns.clear();
    this.turnsSeen = false;
    this.renderHeader();
    // A spectator's seat is not resumed by the server: watch the shown game again.
    if (this.store.current && !this.store.myGames.has(this.store.current)) this.watch(this.store.current);
    this.followRoute();
  }

  private onError(m: ServerMessageOf<"error">, ctx: Pending | undefined): void {
    // The server's words go to the console; the person reads the page's own for the code.
    console.info("server error:", m.code, m.message, m.game ?? "");
    let text = errorText(m);
    if (m.code === "tls_required" && location.protocol === "http:")
      text += " " + t("error.tls_required.open", { url: `https://${location.host}/` });
    if (ctx?.kind === "hello" || ["auth_failed", "name_taken", "protocol_version", "tls_required"].includes(m.code)) {
      if (ctx?.kind === "hello" || !this.store.me) {
        if (ctx?.kind === "hello" && ctx.withToken) localStorage.removeItem(SESSION_KEY);
        this.store.me = null;
        this.signingIn = null;
        this.signInError = ctx?.kind === "hello" && ctx.withToken ? t("signin.session_ended", { error: text }) : text;
        this.link.reconnect("signing in again");
        this.renderHeader();
        this.render();
        return;
      }
    }
    if (m.code === "replaced") {
      this.link.stop(t("connection.replaced.detail"));
      this.notify(t("connection.replaced"), true);
      return;
    }
    if (ctx?.kind === "join" && (m.code === "not_allowed" || m.code === "game_full")) {
      // Your own game, or both seats taken: watch it instead.
      this.watch(ctx.game, ctx.invite);
      if (m.code === "game_full") this.notify(t("game.full_watching", { game: ctx.game }));
      return;
    }
    if (ctx?.kind === "invite") {
      if (this.invitePreview?.game === ctx.game) this.invitePreview.problem = text;
      this.render();
      return;
    }
    if (ctx?.kind === "tournament-create") {
      this.tournamentForm?.answered(text);
      return;
    }
    if (ctx?.kind === "tournament-join" || ctx?.kind === "tournament-withdraw") {
      // Refused (started, full, already in, not in...): the reason stays on the screen.
      if (m.code === "not_allowed") text = ctx.kind === "tournament-join" ? t("tournament.not_allowed") : t("tournament.not_in");
      this.store.tournaments.setProblem(ctx.tournament, ctx.kind === "tournament-join" ? t("tournament.join_refused", { error: text }) : t("tournament.withdraw_refused", { error: text }));
      this.notify(t("tournament.error", { error: text }), true);
      if (this.screen === "tournament") this.renderTournament();
      return;
    }
    if (ctx?.kind === "move") {
      const g = this.store.games.get(ctx.game);
      if (g) {
        g.moveSent = false;
        g.problem = t("game.move_refused.long", { error: text });
      }
      this.notify(t("game.move_refused", { error: text }), true);
      if (ctx.game === this.store.current) this.game.render();
      return;
    }
    if ((ctx?.kind === "watch" || ctx?.kind === "join") && this.store.current === ctx.game && !this.store.games.has(ctx.game)) {
      // The game the address names cannot be shown: say why and go back to the lobby.
      this.notify(t("game.error", { game: ctx.game, error: text }), true);
      location.hash = "#/";
      return;
    }
    this.notify(m.game ? t("game.error", { game: m.game, error: text }) : text, true);
  }

  private watch(game: string, invite?: string): void {
    const code = invite ?? this.store.invites.get(game);
    if (code) this.store.invites.set(game, code);
    this.send({ type: "watch", game, invite: code }, { kind: "watch", game });
  }

  private onStart(m: ServerMessageOf<"start">): void {
    // A game began: the challenges announced are answered (accepted, or moot while it is played).
    for (const n of Array.from(this.notices.children)) if ((n as HTMLElement).dataset.key?.startsWith("challenge-")) n.remove();
    const g = GameModel.fromStart(m);
    const old = this.store.games.get(m.game);
    if (old) g.chat = old.chat;
    g.invite = this.store.invites.get(m.game);
    this.store.games.set(m.game, g);
    if (this.store.waiting?.game === m.game) this.store.waiting = null;
    if (m.color) {
      this.store.myGames.add(m.game);
      this.store.seeking = null;
      this.sounds.play("start");
      if (this.store.current !== m.game) location.hash = `#/game/${m.game}`;
    }
    if (m.game === this.store.current) this.game.show(m.game);
  }

  private onState(m: ServerMessageOf<"state">): void {
    const g = GameModel.fromState(m, this.store.games.get(m.game));
    g.invite = this.store.invites.get(m.game);
    this.store.games.set(m.game, g);
    if (g.problem) this.notify(g.problem, true);
    if (m.color && m.status !== "finished") this.store.myGames.add(m.game);
    const onLobby = this.route.kind === "lobby" && this.screen === "lobby";
    if (m.game === this.store.current) this.game.show(m.game);
    else if (!this.store.me && this.invitePreview?.game === m.game) this.render();
    // A real-time game resumed at sign-in is where the player is needed; a correspondence game
    // waits in the Your turn list instead.
    else if (onLobby && m.color && m.status === "active" && !isCorrespondence(g.time)) location.hash = `#/game/${m.game}`;
  }

  private onMoved(m: ServerMessageOf<"moved">): void {
    const g = this.store.games.get(m.game);
    if (!g) return;
    const before = g.board.clone();
    const r = g.applyMoved(m);
    if (r === "resync") {
      this.watch(m.game);
      return;
    }
    g.problem = undefined;
    if (!g.myTurn() && this.store.yourTurns.drop(m.game)) this.renderLobbyLists();
    if (m.game === this.store.current) {
      const played = parseMove(m.move, before.size);
      this.sounds.playAll(played && before.isLegal(played) ? moveSounds(before, played, g.myTurn()) : [g.myTurn() ? "your-move" : "move"]);
      const mover = sideName(other(g.board.toMove));
      this.game.announce(g.myTurn() ? t("game.announce.played_your_move", { side: mover, move: m.move }) : t("game.announce.played", { side: mover, move: m.move }));
      if (g.myTurn()) notifyWhenHidden(t("game.your_move"), t("game.notify.played", { side: mover, move: m.move, game: m.game }), `turn-${m.game}`);
      this.game.show(m.game);
    }
  }

  private onYourTurn(m: ServerMessageOf<"your_turn">): void {
    const fresh = this.store.yourTurns.update(m.games, performance.now());
    if (this.turnsSeen)
      for (const x of fresh)
        if (x.game !== this.store.current) {
          this.notify(t("your_turn.notice", { game: x.game, opponent: x.opponent, rules: rulesName(x.rules) }));
          notifyWhenHidden(t("game.your_move"), t("your_turn.notify", { game: x.game, opponent: x.opponent, rules: rulesName(x.rules) }), `turn-${x.game}`);
        }
    this.turnsSeen = true;
    this.renderLobbyLists();
  }

  private onEnd(m: ServerMessageOf<"end">): void {
    const g = this.store.games.get(m.game);
    this.store.myGames.delete(m.game);
    this.store.yourTurns.drop(m.game);
    if (this.store.waiting?.game === m.game) this.store.waiting = null;
    if (!g) return;
    g.applyEnd(m);
    if (m.game === this.store.current) {
      this.sounds.play("end");
      if (g.result) this.game.announce(t("game.announce.result", { title: resultTitle(g.result, g.color), reason: resultReason(g.result) }));
    }
    const mine = g.color === "white" ? m.white_rating : g.color === "black" ? m.black_rating : undefined;
    if (mine) {
      this.store.myRating = mine.rating;
      this.renderHeader();
    }
    if (m.game === this.store.current) this.game.show(m.game);
  }

  private onRecord(m: ServerMessageOf<"record">, ctx: Pending | undefined): void {
    if (ctx?.kind === "record-text" || m.format === "text") {
      if (typeof m.record === "string") {
        download(`amazons-game-${m.game}.txt`, m.record);
        this.notify(t("record.saved", { file: `amazons-game-${m.game}.txt` }));
      }
      else this.notify(t("record.not_text"), true);
      return;
    }
    if (this.replay.received(m.game, m.record) && this.screen === "replay") this.renderReplay();
  }

  // ---- routes and screens ----

  private followRoute(): void {
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
        if (!this.store.games.has(route.game) || r.kind !== "join") {
          if (r.kind !== "join") this.watch(route.game);
        }
      }
    } else {
      if (this.store.current && !this.store.myGames.has(this.store.current)) {
        const g = this.store.games.get(this.store.current);
        if (g && g.color === undefined) this.send({ type: "leave", game: this.store.current });
      }
      this.store.current = null;
    }
    if (route.kind === "archive") this.send({ type: "history", player: route.player, limit: 100 });
    if (route.kind === "leaderboard") this.send({ type: "leaderboard", limit: LEADERBOARD_PAGE });
    if (route.kind === "replay") {
      this.replay.asked();
      this.send({ type: "record", game: route.game, format: "json", invite: this.store.invites.get(route.game) }, { kind: "record-json", game: route.game });
    }
    if (route.kind === "lobby") this.refreshLobby(true);
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
    if (r.kind !== "join") this.invitePreview = null;
    if (this.link.isOpen() && !this.signingIn) {
      if (game && !this.store.games.has(game)) this.watch(game);
      if (r.kind === "join" && this.invitePreview?.game !== r.game) this.lookAround();
    }
    this.render();
  }

  private render(): void {
    if (this.route.kind === "computer") return this.renderComputer();
    if (this.route.kind === "analysis") return this.renderAnalysisBoard();
    if (this.route.kind === "learn") return this.renderLesson();
    if (this.route.kind === "settings") return this.renderSettings();
    if (!this.store.me) return this.route.kind === "game" && this.store.current && !this.signingIn ? this.game.show(this.store.current) : this.renderSignIn();
    switch (this.route.kind) {
      case "lobby":
        return this.renderLobby();
      case "game":
      case "join":
        return this.store.current ? this.game.show(this.store.current) : this.renderLobby();
      case "archive":
        return this.renderArchive();
      case "replay":
        return this.renderReplay();
      case "tournament":
        return this.renderTournament();
      case "leaderboard":
        return this.renderLeaderboard();
      case "tournament-new":
        this.tournamentForm ??= new TournamentForm((t) => this.send({ type: "tournament_create", ...t }, { kind: "tournament-create" }));
        return this.setScreen("tournament-new", this.tournamentForm.el);
    }
  }

  private tournamentForm: TournamentForm | null = null;

  // The engine in this page (WebAssembly in a Web Worker), started the first time a screen needs
  // it: the game against the computer and the analysis of a replay share it.
  private engine: BrowserEngine | null = null;
  private pageEngine(): BrowserEngine {
    this.engine ??= new BrowserEngine(() => {
      if (this.screen === "computer") this.computer?.show();
    });
    return this.engine;
  }
  private readonly replay = new ReplayScreen({
    pageEngine: () => this.pageEngine(),
    show: (el) => this.setScreen("replay", el),
    exportRecord: (game) => this.exportRecord(game),
    notify: (text, error) => this.notify(text, error),
    territory: () => this.game.territoryShown(),
  });

  // A game against the engine in this page; needs no server and no name.
  private computer: ComputerScreen | null = null;
  private renderComputer(): void {
    this.computer ??= new ComputerScreen(() => this.store.me !== null, () => this.pageEngine(), this.sounds);
    if (this.screen !== "computer") this.setScreen("computer", this.computer.el);
    this.computer.show();
  }

  private settingsScreen: SettingsScreen | null = null;
  private renderSettings(): void {
    this.settingsScreen ??= new SettingsScreen(this.sounds, () => this.renderHeader());
    if (this.screen !== "settings") this.setScreen("settings", this.settingsScreen.el);
    this.settingsScreen.show();
  }

  private lesson: LessonScreen | null = null;
  private renderLesson(): void {
    this.lesson ??= new LessonScreen();
    if (this.screen !== "learn") this.setScreen("learn", this.lesson.el);
    this.lesson.show();
  }

  // The analysis board: any position, with the engine in this page; needs no server and no name.
  // A link with a position opens it, and the address becomes #/analysis, so that a reload keeps
  // what the person explored since (the screen keeps its tree in the browser).
  private analysisBoard: AnalysisScreen | null = null;
  private renderAnalysisBoard(): void {
    if (this.route.kind !== "analysis") return;
    this.analysisBoard ??= new AnalysisScreen(() => this.pageEngine());
    const first = this.screen !== "analysis";
    if (first) this.setScreen("analysis", this.analysisBoard.el);
    if (this.route.input) {
      this.analysisBoard.open(this.route.input, this.route.ply);
      this.route = { kind: "analysis" };
      history.replaceState(null, "", "#/analysis");
    } else if (first) {
      this.analysisBoard.open(null);
    }
  }

  private renderTournament(): void {
    if (this.route.kind !== "tournament") return;
    this.lastTournamentRender = performance.now();
    this.setScreen("tournament", this.store.tournaments.view(this.route.id, this.store.me, Date.now(), {
      join: (id) => this.send({ type: "tournament_join", tournament: id }, { kind: "tournament-join", tournament: id }),
      withdraw: (id) => this.send({ type: "tournament_withdraw", tournament: id }, { kind: "tournament-withdraw", tournament: id }),
    }));
  }

  private setScreen(name: string, ...children: HTMLElement[]): void {
    if (name !== "analysis") this.analysisBoard?.hide();
    if (name !== "computer") this.computer?.hide();
    if (name !== "replay") this.replay.leave();
    this.screen = name;
    this.main.dataset.screen = name;
    replaceChildren(this.main, ...children);
  }

  private renderHeader(): void {
    const state =
      this.store.linkState === "open"
        ? t("connection.online")
        : this.store.linkState === "reconnecting"
        ? t("connection.reconnecting")
        : this.store.linkState === "stopped"
        ? t("connection.disconnected")
        : t("connection.connecting");
    const conn = h("span", { class: `conn ${this.store.linkState}`, id: "conn", title: this.store.linkDetail }, state);
    const nav = this.store.me
      ? h(
          "nav",
          {},
          h("a", { href: "#/" }, t("nav.lobby")),
          h("a", { href: "#/archive", id: "nav-archive" }, t("nav.my_games")),
          h("a", { href: "#/analysis", id: "nav-analysis" }, t("nav.analysis")),
          h("span", { class: "me", id: "me" }, `${this.store.me} (${this.store.myRating})`),
          h("button", { class: "quiet", id: "signout", onclick: () => this.signOut() }, t("nav.sign_out")),
        )
      : null;
    const sound = h("button", { class: "quiet", id: "sound", "aria-pressed": this.sounds.enabled ? "true" : "false", title: t("nav.sound.title"),
      onclick: () => { this.sounds.toggle(); this.renderHeader(); } }, this.sounds.enabled ? t("nav.sound.on") : t("nav.sound.off"));
    const settings = h("a", { href: "#/settings", id: "nav-settings" }, t("nav.settings"));
    replaceChildren(this.header, h("a", { class: "brand", href: "#/" }, h("span", { class: "crown" }, icon("queen")), t("app.name")), conn, sound, settings, nav);
  }

  private signOut(): void {
    localStorage.removeItem(SESSION_KEY);
    this.store.signedOut();
    this.link.reconnect("signed out");
    this.renderHeader();
    this.render();
  }

  // A notice for a while. One with a `key` replaces the notice of that key, and dismiss(key) takes
  // it away when what it announced is answered (a challenge accepted or withdrawn).
  notify(text: string, error = false, key?: string): void {
    if (key) this.dismiss(key);
    const close = h("button", { class: "close", "aria-label": t("notice.dismiss") }, icon("close"));
    const n = h("div", { class: `notice${error ? " error" : ""}`, role: error ? "alert" : "status", "data-key": key }, h("span", {}, text), close);
    close.addEventListener("click", () => n.remove());
    this.notices.appendChild(n);
    while (this.notices.childElementCount > 5) this.notices.firstElementChild!.remove();
    window.setTimeout(() => n.remove(), error ? NOTICE_MS * 2 : NOTICE_MS);
  }

  private dismiss(key: string): void {
    for (const n of Array.from(this.notices.children)) if ((n as HTMLElement).dataset.key === key) n.remove();
  }

  private renderSignIn(): void {
    if (this.signingIn && !this.signInError) {
      this.setScreen("signin", h("section", { class: "card narrow" }, h("h1", {}, t("signin.signing_in")), h("p", { class: "muted" }, t("signin.as", { name: this.signingIn.name }))));
      return;
    }
    const name = h("input", { id: "name", name: "name", autocomplete: "username", maxlength: 32, required: true, placeholder: t("signin.name.placeholder") });
    const saved = loadSession();
    // The name tried last (kept after a refusal), else the saved one, else a guest name to accept.
    this.guestName ||= `guest${Math.floor(1000 + Math.random() * 9000)}`;
    name.value = this.triedName || saved?.name || this.guestName;
    const password = h("input", { id: "password", type: "password", autocomplete: "current-password", placeholder: t("signin.password.placeholder") });
    const error = h("p", { class: "error", id: "signin-error" }, this.signInError);
    // An invite link: who invites to what first, and the form seats the visitor in one click.
    const r = this.route;
    const invite = r.kind === "join" ? inviteView(r.game, this.store.games.get(r.game), this.invitePreview?.game === r.game ? this.invitePreview.problem : null) : null;
    const invited = r.kind === "join" && this.store.games.get(r.game)?.status === "open";
    const form = h(
      "form",
      { class: "card", id: "signin" },
      h("h2", {}, t(invited ? "signin.title_invited" : "signin.title")),
      h("p", { class: "muted" }, t("signin.explain")),
      h("label", {}, t("signin.name"), name),
      h("label", {}, t("signin.password"), password),
      error,
      h("button", { class: "primary", type: "submit", id: "signin-button" }, t(invited ? "signin.submit_invited" : "signin.submit")),
    );
    // The first screen: the game itself, its rules in two lines, and the ways in.
    const board = new BoardView(new MoveInput(), () => undefined);
    board.show({ board: Board.fromVariant(BUILTIN_VARIANTS[0]), lastMove: null, flipped: false, territory: null });
    const home = h("div", { class: "home", id: "home" },
      h("section", { class: "home-board" }, board.el, this.liveSlot),
      h("section", { class: "home-side" },
        h("div", { class: "card" },
          h("h1", {}, t("home.title")),
          h("p", { id: "rules-summary" }, t("home.rules_summary")),
          h("div", { class: "home-actions" },
            h("a", { class: "button primary", href: "#/computer", id: "play-computer" }, t("home.play_computer")),
            h("a", { class: "button", href: "#/learn", id: "learn" }, t("home.learn")),
            h("a", { class: "button", href: "#/analysis", id: "open-analysis" }, t("home.analysis_board"))),
          h("p", { class: "muted" }, t("home.no_signin"))),
        form));
    // Invited: who invites to what, and the form that accepts, come first.
    if (invite) (home.querySelector(".home-side") as HTMLElement).prepend(invite, form);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const n = name.value.trim();
      if (!/^[A-Za-z0-9_.-]{1,32}$/.test(n)) {
        error.textContent = t("signin.name.bad");
        return;
      }
      this.signInError = "";
      this.triedName = n;
      this.signingIn = { name: n, password: password.value || undefined };
      if (loadSession()?.name !== n) localStorage.removeItem(SESSION_KEY);
      this.render();
      if (this.link.isOpen()) this.onOpen();
    });
    this.setScreen("signin", home);
  }

  // ---- lobby ----

  private readonly lobby = new LobbyScreen({
    create: (s, priv) => this.send({ type: "create", rules: s.rules, time: s.time, color: s.color, rated: s.rated, private: priv }),
    seek: (rules, time, rated) => {
      if (this.store.seeking) this.send({ type: "unseek" }, { kind: "other", what: "unseek" });
      this.send({ type: "seek", rules, time, rated });
    },
    unseek: () => this.send({ type: "unseek" }, { kind: "other", what: "unseek" }),
    join: (game) => this.send({ type: "join", game }, { kind: "join", game }),
    leave: (game) => this.send({ type: "leave", game }),
    accept: (challenge) => {
      this.store.challenges.delete(challenge);
      this.send({ type: "accept", challenge });
    },
    decline: (challenge) => {
      this.store.challenges.delete(challenge);
      this.send({ type: "decline", challenge });
      this.renderLobbyLists();
    },
    challenge: (player, s) => this.send({ type: "challenge", player, rules: s.rules, time: s.time, color: s.color, rated: s.rated }),
    notify: (text, error) => this.notify(text, error),
  });

  private refreshLobby(all: boolean): void {
    if (!this.link.isOpen() || !this.store.me) return;
    this.lastLobbyRefresh = performance.now();
    this.send({ type: "list" });
    this.send({ type: "players" });
    this.send({ type: "turns" });
    this.send({ type: "tournaments" });
    if (all || performance.now() - this.lastLeaderboard > LEADERBOARD_REFRESH_MS) {
      this.lastLeaderboard = performance.now();
      this.send({ type: "leaderboard", limit: 20 });
    }
  }

  private renderLobby(): void {
    this.setScreen("lobby", this.lobby.build());
    this.renderLobbyLists();
  }

  private renderLobbyLists(): void {
    if (this.screen !== "lobby") return;
    this.lobby.renderLists({
      me: this.store.me,
      openGames: this.store.openGames,
      players: this.store.players,
      leaderboard: this.store.leaderboard,
      challenges: [...this.store.challenges.values()],
      seeking: this.store.seeking,
      myGames: [...this.store.myGames].map((id) => ({ id, text: this.myGameText(id) })),
      yourTurns: this.store.yourTurns.rows(performance.now()),
      tournaments: this.store.tournaments.rows(Date.now()),
    });
  }

  // "Game 3 against bob · your move", from what the page knows of the game.
  private myGameText(id: string): string {
    const g = this.store.games.get(id);
    if (!g || g.color === undefined) return t("game.title", { game: id });
    const opponent = g.player(other(g.color))?.name;
    if (g.status === "open") return t("lobby.my_game.waiting", { game: id });
    const title = opponent ? t("lobby.my_game.against", { game: id, opponent }) : t("game.title", { game: id });
    return `${title} · ${g.myTurn() ? t("lobby.my_game.your_move") : opponent ? t("lobby.my_game.to_move", { player: opponent }) : t("lobby.my_game.their_move")}`;
  }

  private renderLeaderboard(): void {
    this.setScreen("leaderboard", h("section", { class: "card", id: "leaderboard-page" }, h("h1", {}, t("leaderboard.title")),
      h("p", { class: "muted" }, t("leaderboard.explain")),
      leaderTable(this.store.leaderboard, LEADERBOARD_PAGE), h("a", { class: "button quiet", href: "#/" }, t("nav.lobby"))));
  }

  // ---- game ----

  private tick(): void {
    if (this.screen === "computer") this.computer?.tick();
    // The tab says when a game waits for your move, so that another tab shows it too.
    let waiting = 0;
    for (const g of this.store.games.values()) if (g.status === "active" && g.color !== undefined && g.myTurn() && !g.moveSent) ++waiting;
    const title = waiting > 0 ? t("app.title.your_move", { count: waiting }) : t("app.name");
    if (document.title !== title) {
      document.title = title;
      const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (link) link.href = tabIcon(waiting > 0);
    }
    if (this.screen === "game") this.game.tick();
    if (this.screen === "lobby" && performance.now() - this.lastLobbyRefresh > LOBBY_REFRESH_MS) this.refreshLobby(false);
    if (this.screen === "signin" && !this.store.me && !this.signingIn && this.link.isOpen() && performance.now() - this.lastLobbyRefresh > LOBBY_REFRESH_MS) {
      this.lastLobbyRefresh = performance.now();
      this.send({ type: "list" });
    }
    // The tournament's "starts in N s" counts down.
    if (this.screen === "tournament" && performance.now() - this.lastTournamentRender > 1000) this.renderTournament();
  }

  // ---- archive and replay (archive_screen.ts, replay_screen.ts) ----

  private renderArchive(): void {
    const who = this.route.kind === "archive" && this.route.player ? this.route.player : this.store.me!;
    const now = who === this.store.me ? this.store.myRating : [...this.store.players, ...this.store.leaderboard].find((p) => p.name === who)?.rating ?? null;
    this.setScreen("archive", archiveView(this.store.history, who, who === this.store.me, now, (game) => this.exportRecord(game)));
  }

  private exportRecord(game: string): void {
    this.send({ type: "record", game, format: "text", invite: this.store.invites.get(game) }, { kind: "record-text", game });
  }

  private renderReplay(): void {
    this.replay.render(this.route.kind === "replay" ? this.route.game : null);
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
