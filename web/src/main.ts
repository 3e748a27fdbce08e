// The web client: sign-in, lobby and game screens over one WebSocket, and the page's routes to
// the other screens (each in a module of its own: archive_screen.ts, replay_screen.ts, ...). The
// screens read the state below and the server's messages change it; nothing here decides a
// game: the server checks every request and this page shows what it says.
import {
  BUILTIN_VARIANTS,
  PROTOCOL_VERSION,
  type ClientMessage,
  type GameSummary,
  type LeaderboardEntry,
  type OnlinePlayer,
  type RequestId,
  type ServerMessage,
  type ServerMessageOf,
} from "@protocol";
import { BoardView } from "./board_view";
import { ComputerScreen } from "./computer_screen";
import { archiveView } from "./archive_screen";
import { ReplayScreen } from "./replay_screen";
import { AnalysisScreen } from "./analysis_screen";
import { LOW_TIME_MS, Sounds, moveSounds } from "./sound";
import { LessonScreen } from "./lesson";
import { SettingsScreen, confirmMoves, loadSettings } from "./settings";
import { notifyWhenHidden } from "./notify";
import { BrowserEngine } from "./engine";
import { Link, LinkState, defaultUrl } from "./connection";
import { copyText, download, h, replaceChildren } from "./dom";
import { icon } from "./icons";
import { GameModel, playerText, ratedText, resultReason, resultTitle, rulesName, sideName, timeText } from "./game";
import { errorText } from "./errors";
import { t } from "./i18n";
import { MoveInput } from "./input";
import { premoveBoard } from "./premove";
import { Board, Move, formatMove, other, parseMove, replay, sameMove } from "./rules";
import { territoryMap } from "./territory";
import { LobbyScreen, leaderTable } from "./lobby_screen";
import { confirmButton, renderMoveList, renderResult, renderSeat, statusLine, typedMoveForm } from "./game_view";
import { Tournaments } from "./tournaments";
import { TournamentForm } from "./tournament_form";
import { YourTurns, isCorrespondence } from "./your_turn";
import { inviteView, liveGamesView } from "./visitor";

const SESSION_KEY = "amazons.session";
const TERRITORY_KEY = "amazons.territory";
const LOBBY_REFRESH_MS = 5000;
const LEADERBOARD_REFRESH_MS = 30_000;
const LEADERBOARD_PAGE = 100;
const NOTICE_MS = 10_000;
const MAX_CHAT_BYTES = 500;

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

// What a request was for, so its error or answer can be put in context.
type Pending =
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

class App {
  private link: Link;
  private nextId = 1;
  private pending = new Map<RequestId, Pending>();
  private linkState: LinkState = "connecting";
  private linkDetail = "";
  private signingIn: { name: string; password?: string } | null = null;
  private signInError = "";
  private triedName = ""; // kept in the form after a refusal
  private guestName = ""; // offered to a first visitor
  // Before signing in: the invite's game being looked up, and why it cannot be shown.
  private invitePreview: { game: string; problem: string | null } | null = null;
  private liveSlot = h("div", { class: "live-slot" }); // the first screen's games being played
  me: string | null = null;
  myRating = 1500;
  private route: Route = parseRoute(location.hash);

  // Lobby
  private openGames: GameSummary[] = [];
  private players: OnlinePlayer[] = [];
  private leaderboard: LeaderboardEntry[] = [];
  private challenges = new Map<string, ServerMessageOf<"challenge">>();
  private seeking: ServerMessageOf<"seeking"> | null = null;
  private waiting: { game: string; invite?: string } | null = null;
  private myGames = new Set<string>();
  private lastLobbyRefresh = 0;
  private lastLeaderboard = 0;
  private yourTurns = new YourTurns();
  private turnsSeen = false; // the first list after signing in is shown without notices
  private tournaments = new Tournaments();
  private lastTournamentRender = 0;

  // Games
  private games = new Map<string, GameModel>();
  private invites = new Map<string, string>();
  private current: string | null = null;
  private input = new MoveInput();
  private premoving = false; // `input` enters a premove (the opponent is to move)
  private confirming: Move | null = null; // a move entered, waiting for Confirm (settings)
  private boardView: BoardView;
  private territory = localStorage.getItem(TERRITORY_KEY) === "1";

  // Archive and replay
  private history: ServerMessageOf<"history"> | null = null;

  // Page
  private root: HTMLElement;
  private header = h("header", { class: "top" });
  private notices = h("div", { class: "notices", id: "notices", "aria-live": "polite" });
  private main = h("main", { id: "screen" });
  private screen = "";
  private gameParts: Record<string, HTMLElement> = {};
  private flipGame = false; // the game board turned from its usual side (yours at the bottom)
  private lookPly: number | null = null; // an earlier position of the game shown; null: the game now
  private readonly sounds = new Sounds();
  private readonly lowTimeWarned = new Set<string>(); // games whose low-time warning has sounded

  constructor(root: HTMLElement) {
    this.root = root;
    this.boardView = new BoardView(this.input, (m) => this.sendMove(m), () => this.renderGame());
    // Right click and Esc take back a premove, or a move waiting for Confirm.
    this.boardView.beforeBack = () => this.cancelPremove() || (this.confirming !== null && (this.cancelConfirm(), true));
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
      if (e.key === "Escape" && this.screen === "game" && !this.cancelPremove()) this.boardView.back();
      if (this.screen === "game" && !(e.target instanceof HTMLInputElement) && (e.key === "ArrowLeft" || e.key === "ArrowRight")) this.lookBack(e.key === "ArrowLeft" ? -1 : 1);
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
    this.linkState = s;
    this.linkDetail = detail;
    if (s !== "open") this.seeking = null;
    this.renderHeader();
    if (this.screen === "game") this.renderGame();
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
    } else if (this.me && session) {
      this.link.send({ type: "hello", protocol: PROTOCOL_VERSION, name: session.name, token: session.token, id: 0 });
      this.pending.set(0, { kind: "hello", withToken: true });
    } else if (!this.me) {
      this.lookAround();
    }
  }

  // Signed out: what the server shows a visitor (docs/PROTOCOL.md, before hello): the games being
  // played for the first screen, the game the address names, or the invite's game.
  private lookAround(): void {
    if (!this.link.isOpen() || this.me || this.signingIn) return;
    this.lastLobbyRefresh = performance.now();
    this.send({ type: "list" });
    const r = this.route;
    if (r.kind === "game") this.watch(r.game);
    if (r.kind === "join") {
      this.invites.set(r.game, r.invite);
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
        this.openGames = m.games;
        if (!this.me) replaceChildren(this.liveSlot, liveGamesView(m.games));
        return this.renderLobbyLists();
      case "players":
        this.players = m.players;
        for (const p of m.players)
          if (p.name === this.me && p.rating !== this.myRating) {
            this.myRating = p.rating;
            this.renderHeader();
          }
        return this.renderLobbyLists();
      case "leaderboard":
        this.leaderboard = m.players;
        if (this.screen === "leaderboard") this.renderLeaderboard();
        return this.renderLobbyLists();
      case "created":
        this.waiting = { game: m.game, invite: m.invite };
        this.myGames.add(m.game);
        if (m.invite) this.invites.set(m.game, m.invite);
        location.hash = `#/game/${m.game}`;
        return;
      case "seeking":
        this.seeking = m;
        return this.renderLobbyLists();
      case "challenge":
        this.challenges.set(m.challenge, m);
        this.notify(t("challenge.received", { player: playerText(m.from), rules: rulesName(m.rules), time: timeText(m.time), rated: ratedText(m.rated) }), false, `challenge-${m.challenge}`);
        notifyWhenHidden(t("challenge.received.title", { player: m.from.name }), t("challenge.received.body", { rules: rulesName(m.rules), time: timeText(m.time), rated: ratedText(m.rated) }), `challenge-${m.challenge}`);
        return this.renderLobbyLists();
      case "challenge_sent":
        return this.notify(t("challenge.sent", { player: m.to }), false, `challenge-${m.challenge}`);
      case "challenge_closed":
        this.challenges.delete(m.challenge);
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
        const g = this.games.get(m.game);
        if (g) g.chat.push({ from: m.from, text: m.text });
        if (m.game === this.current) this.renderChat();
        return;
      }
      case "presence": {
        const g = this.games.get(m.game);
        if (!g) return;
        g.offline = g.offline.filter((c) => c !== m.color);
        if (!m.online) g.offline.push(m.color);
        g.claimAt = !m.online && m.claim_in_ms !== undefined ? performance.now() + m.claim_in_ms : undefined;
        this.notify(m.online ? t("game.presence.online", { player: m.player }) : t("game.presence.offline", { player: m.player }));
        if (m.game === this.current) this.renderGame();
        return;
      }
      case "rematch_offer": {
        const g = this.games.get(m.game);
        if (g) g.rematchFrom = m.from;
        this.notify(t("game.rematch.offered_by", { player: m.from }));
        if (m.game === this.current) this.renderGame();
        return;
      }
      case "history":
        this.history = m;
        if (this.screen === "archive") this.renderArchive();
        return;
      case "record":
        return this.onRecord(m, ctx);
      case "your_turn":
        return this.onYourTurn(m);
      case "tournaments":
        this.tournaments.setList(m.tournaments);
        return this.renderLobbyLists();
      case "tournament":
        this.tournaments.setDetail(m);
        if (ctx?.kind === "tournament-create") {
          this.tournamentForm?.answered(null);
          location.hash = `#/tournament/${m.tournament.id}`;
          return;
        }
        if (this.screen === "tournament") this.renderTournament();
        return;
      case "ok":
        if (ctx?.kind === "other" && ctx.what === "unseek") this.seeking = null;
        if (ctx?.kind === "tournament-join" || ctx?.kind === "tournament-withdraw") {
          this.tournaments.setProblem(ctx.tournament, null);
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
    this.me = m.name;
    this.myRating = m.player.rating;
    this.signingIn = null;
    this.signInError = "";
    localStorage.setItem(SESSION_KEY, JSON.stringify({ name: m.name, token: m.token }));
    for (const g of m.games) this.myGames.add(g);
    this.yourTurns.clear();
    this.turnsSeen = false;
    this.renderHeader();
    // A spectator's seat is not resumed by the server: watch the shown game again.
    if (this.current && !this.myGames.has(this.current)) this.watch(this.current);
    this.followRoute();
  }

  private onError(m: ServerMessageOf<"error">, ctx: Pending | undefined): void {
    // The server's words go to the console; the person reads the page's own for the code.
    console.info("server error:", m.code, m.message, m.game ?? "");
    let text = errorText(m);
    if (m.code === "tls_required" && location.protocol === "http:")
      text += " " + t("error.tls_required.open", { url: `https://${location.host}/` });
    if (ctx?.kind === "hello" || ["auth_failed", "name_taken", "protocol_version", "tls_required"].includes(m.code)) {
      if (ctx?.kind === "hello" || !this.me) {
        if (ctx?.kind === "hello" && ctx.withToken) localStorage.removeItem(SESSION_KEY);
        this.me = null;
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
      this.tournaments.setProblem(ctx.tournament, ctx.kind === "tournament-join" ? t("tournament.join_refused", { error: text }) : t("tournament.withdraw_refused", { error: text }));
      this.notify(t("tournament.error", { error: text }), true);
      if (this.screen === "tournament") this.renderTournament();
      return;
    }
    if (ctx?.kind === "move") {
      const g = this.games.get(ctx.game);
      if (g) {
        g.moveSent = false;
        g.problem = t("game.move_refused.long", { error: text });
      }
      this.notify(t("game.move_refused", { error: text }), true);
      if (ctx.game === this.current) this.renderGame();
      return;
    }
    if ((ctx?.kind === "watch" || ctx?.kind === "join") && this.current === ctx.game && !this.games.has(ctx.game)) {
      // The game the address names cannot be shown: say why and go back to the lobby.
      this.notify(t("game.error", { game: ctx.game, error: text }), true);
      location.hash = "#/";
      return;
    }
    this.notify(m.game ? t("game.error", { game: m.game, error: text }) : text, true);
  }

  private watch(game: string, invite?: string): void {
    const code = invite ?? this.invites.get(game);
    if (code) this.invites.set(game, code);
    this.send({ type: "watch", game, invite: code }, { kind: "watch", game });
  }

  private onStart(m: ServerMessageOf<"start">): void {
    // A game began: the challenges announced are answered (accepted, or moot while it is played).
    for (const n of Array.from(this.notices.children)) if ((n as HTMLElement).dataset.key?.startsWith("challenge-")) n.remove();
    const g = GameModel.fromStart(m);
    const old = this.games.get(m.game);
    if (old) g.chat = old.chat;
    g.invite = this.invites.get(m.game);
    this.games.set(m.game, g);
    if (this.waiting?.game === m.game) this.waiting = null;
    if (m.color) {
      this.myGames.add(m.game);
      this.seeking = null;
      this.sounds.play("start");
      if (this.current !== m.game) location.hash = `#/game/${m.game}`;
    }
    if (m.game === this.current) this.showGame(m.game);
  }

  private onState(m: ServerMessageOf<"state">): void {
    const g = GameModel.fromState(m, this.games.get(m.game));
    g.invite = this.invites.get(m.game);
    this.games.set(m.game, g);
    if (g.problem) this.notify(g.problem, true);
    if (m.color && m.status !== "finished") this.myGames.add(m.game);
    const onLobby = this.route.kind === "lobby" && this.screen === "lobby";
    if (m.game === this.current) this.showGame(m.game);
    else if (!this.me && this.invitePreview?.game === m.game) this.render();
    // A real-time game resumed at sign-in is where the player is needed; a correspondence game
    // waits in the Your turn list instead.
    else if (onLobby && m.color && m.status === "active" && !isCorrespondence(g.time)) location.hash = `#/game/${m.game}`;
  }

  private onMoved(m: ServerMessageOf<"moved">): void {
    const g = this.games.get(m.game);
    if (!g) return;
    const before = g.board.clone();
    const r = g.applyMoved(m);
    if (r === "resync") {
      this.watch(m.game);
      return;
    }
    g.problem = undefined;
    if (!g.myTurn() && this.yourTurns.drop(m.game)) this.renderLobbyLists();
    if (m.game === this.current) {
      const played = parseMove(m.move, before.size);
      this.sounds.playAll(played && before.isLegal(played) ? moveSounds(before, played, g.myTurn()) : [g.myTurn() ? "your-move" : "move"]);
      const mover = sideName(other(g.board.toMove));
      replaceChildren(this.gameParts.announce, g.myTurn() ? t("game.announce.played_your_move", { side: mover, move: m.move }) : t("game.announce.played", { side: mover, move: m.move }));
      if (g.myTurn()) notifyWhenHidden(t("game.your_move"), t("game.notify.played", { side: mover, move: m.move, game: m.game }), `turn-${m.game}`);
      this.showGame(m.game);
    }
  }

  private onYourTurn(m: ServerMessageOf<"your_turn">): void {
    const fresh = this.yourTurns.update(m.games, performance.now());
    if (this.turnsSeen)
      for (const x of fresh)
        if (x.game !== this.current) {
          this.notify(t("your_turn.notice", { game: x.game, opponent: x.opponent, rules: rulesName(x.rules) }));
          notifyWhenHidden(t("game.your_move"), t("your_turn.notify", { game: x.game, opponent: x.opponent, rules: rulesName(x.rules) }), `turn-${x.game}`);
        }
    this.turnsSeen = true;
    this.renderLobbyLists();
  }

  private onEnd(m: ServerMessageOf<"end">): void {
    const g = this.games.get(m.game);
    this.myGames.delete(m.game);
    this.yourTurns.drop(m.game);
    if (this.waiting?.game === m.game) this.waiting = null;
    if (!g) return;
    g.applyEnd(m);
    if (m.game === this.current) {
      this.sounds.play("end");
      if (g.result) replaceChildren(this.gameParts.announce, t("game.announce.result", { title: resultTitle(g.result, g.color), reason: resultReason(g.result) }));
    }
    const mine = g.color === "white" ? m.white_rating : g.color === "black" ? m.black_rating : undefined;
    if (mine) {
      this.myRating = mine.rating;
      this.renderHeader();
    }
    if (m.game === this.current) this.showGame(m.game);
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
    if (!this.me) return this.followRouteSignedOut();
    const r = this.route;
    if (r.kind === "join") {
      this.invites.set(r.game, r.invite);
      this.send({ type: "join", game: r.game, invite: r.invite }, { kind: "join", game: r.game, invite: r.invite });
      history.replaceState(null, "", `#/game/${r.game}`);
      this.route = { kind: "game", game: r.game };
    }
    const route = this.route;
    if (route.kind === "game") {
      if (this.current !== route.game) {
        this.current = route.game;
        if (!this.games.has(route.game) || r.kind !== "join") {
          if (r.kind !== "join") this.watch(route.game);
        }
      }
    } else {
      if (this.current && !this.myGames.has(this.current)) {
        const g = this.games.get(this.current);
        if (g && g.color === undefined) this.send({ type: "leave", game: this.current });
      }
      this.current = null;
    }
    if (route.kind === "archive") this.send({ type: "history", player: route.player, limit: 100 });
    if (route.kind === "leaderboard") this.send({ type: "leaderboard", limit: LEADERBOARD_PAGE });
    if (route.kind === "replay") {
      this.replay.asked();
      this.send({ type: "record", game: route.game, format: "json", invite: this.invites.get(route.game) }, { kind: "record-json", game: route.game });
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
    if (this.current && this.current !== game) {
      if (this.link.isOpen()) this.send({ type: "leave", game: this.current });
      this.games.delete(this.current);
    }
    this.current = game;
    if (r.kind !== "join") this.invitePreview = null;
    if (this.link.isOpen() && !this.signingIn) {
      if (game && !this.games.has(game)) this.watch(game);
      if (r.kind === "join" && this.invitePreview?.game !== r.game) this.lookAround();
    }
    this.render();
  }

  private render(): void {
    if (this.route.kind === "computer") return this.renderComputer();
    if (this.route.kind === "analysis") return this.renderAnalysisBoard();
    if (this.route.kind === "learn") return this.renderLesson();
    if (this.route.kind === "settings") return this.renderSettings();
    if (!this.me) return this.route.kind === "game" && this.current && !this.signingIn ? this.showGame(this.current) : this.renderSignIn();
    switch (this.route.kind) {
      case "lobby":
        return this.renderLobby();
      case "game":
      case "join":
        return this.current ? this.showGame(this.current) : this.renderLobby();
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
    territory: () => this.territory,
  });

  // A game against the engine in this page; needs no server and no name.
  private computer: ComputerScreen | null = null;
  private renderComputer(): void {
    this.computer ??= new ComputerScreen(() => this.me !== null, () => this.pageEngine(), this.sounds);
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
    this.setScreen("tournament", this.tournaments.view(this.route.id, this.me, Date.now(), {
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
      this.linkState === "open"
        ? t("connection.online")
        : this.linkState === "reconnecting"
        ? t("connection.reconnecting")
        : this.linkState === "stopped"
        ? t("connection.disconnected")
        : t("connection.connecting");
    const conn = h("span", { class: `conn ${this.linkState}`, id: "conn", title: this.linkDetail }, state);
    const nav = this.me
      ? h(
          "nav",
          {},
          h("a", { href: "#/" }, t("nav.lobby")),
          h("a", { href: "#/archive", id: "nav-archive" }, t("nav.my_games")),
          h("a", { href: "#/analysis", id: "nav-analysis" }, t("nav.analysis")),
          h("span", { class: "me", id: "me" }, `${this.me} (${this.myRating})`),
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
    this.me = null;
    this.games.clear();
    this.myGames.clear();
    this.yourTurns.clear();
    this.current = null;
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
    const invite = r.kind === "join" ? inviteView(r.game, this.games.get(r.game), this.invitePreview?.game === r.game ? this.invitePreview.problem : null) : null;
    const invited = invite !== null && this.games.get((r as { game: string }).game)?.status === "open";
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
      if (this.seeking) this.send({ type: "unseek" }, { kind: "other", what: "unseek" });
      this.send({ type: "seek", rules, time, rated });
    },
    unseek: () => this.send({ type: "unseek" }, { kind: "other", what: "unseek" }),
    join: (game) => this.send({ type: "join", game }, { kind: "join", game }),
    leave: (game) => this.send({ type: "leave", game }),
    accept: (challenge) => {
      this.challenges.delete(challenge);
      this.send({ type: "accept", challenge });
    },
    decline: (challenge) => {
      this.challenges.delete(challenge);
      this.send({ type: "decline", challenge });
      this.renderLobbyLists();
    },
    challenge: (player, s) => this.send({ type: "challenge", player, rules: s.rules, time: s.time, color: s.color, rated: s.rated }),
    notify: (text, error) => this.notify(text, error),
  });

  private refreshLobby(all: boolean): void {
    if (!this.link.isOpen() || !this.me) return;
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
      me: this.me,
      openGames: this.openGames,
      players: this.players,
      leaderboard: this.leaderboard,
      challenges: [...this.challenges.values()],
      seeking: this.seeking,
      myGames: [...this.myGames].map((id) => ({ id, text: this.myGameText(id) })),
      yourTurns: this.yourTurns.rows(performance.now()),
      tournaments: this.tournaments.rows(Date.now()),
    });
  }

  // "Game 3 against bob · your move", from what the page knows of the game.
  private myGameText(id: string): string {
    const g = this.games.get(id);
    if (!g || g.color === undefined) return t("game.title", { game: id });
    const opponent = g.player(other(g.color))?.name;
    if (g.status === "open") return t("lobby.my_game.waiting", { game: id });
    const title = opponent ? t("lobby.my_game.against", { game: id, opponent }) : t("game.title", { game: id });
    return `${title} · ${g.myTurn() ? t("lobby.my_game.your_move") : opponent ? t("lobby.my_game.to_move", { player: opponent }) : t("lobby.my_game.their_move")}`;
  }

  private renderLeaderboard(): void {
    this.setScreen("leaderboard", h("section", { class: "card", id: "leaderboard-page" }, h("h1", {}, t("leaderboard.title")),
      h("p", { class: "muted" }, t("leaderboard.explain")),
      leaderTable(this.leaderboard, LEADERBOARD_PAGE), h("a", { class: "button quiet", href: "#/" }, t("nav.lobby"))));
  }

  // ---- game ----

  private showGame(id: string): void {
    const g = this.games.get(id);
    if (this.screen !== "game" || this.gameParts.id?.dataset.game !== id) this.buildGame(id);
    if (!g) return;
    if (g.myTurn() && !g.moveSent) {
      // The opponent's move is here: a premove goes out at once if it is still legal.
      const out = g.premove.resolve(g.board);
      if (out && out.notice === null) {
        this.premoving = false;
        this.input.disable();
        return this.sendMove(out.move);
      }
      if (out?.notice) this.notify(out.notice, true);
    }
    this.premoving = g.opponentThinking() && !g.premove.move;
    if (this.confirming && (!g.myTurn() || g.moveSent || !g.board.isLegal(this.confirming))) this.confirming = null;
    if (this.premoving) this.input.reset(premoveBoard(g.board, g.color!), true);
    else if (this.confirming) this.input.disable();
    else this.input.reset(g.board, g.myTurn() && !g.moveSent);
    this.renderGame();
  }

  // Right click or Esc with a premove pending; false when there was none.
  private cancelPremove(): boolean {
    const g = this.current ? this.games.get(this.current) : undefined;
    if (this.screen !== "game" || !g || !g.premove.cancel()) return false;
    this.notify(t("game.premove_cancelled"));
    this.showGame(g.id);
    return true;
  }

  // Steps through the game's earlier positions (the board shows them; moves go on meanwhile);
  // past the last move it is the game now again.
  private lookBack(step: number | "live"): void {
    const g = this.current ? this.games.get(this.current) : undefined;
    if (!g) return;
    const at = this.lookPly ?? g.moves.length;
    const next = step === "live" ? g.moves.length : Math.max(0, Math.min(g.moves.length, at + step));
    this.lookPly = next >= g.moves.length ? null : next;
    this.showGame(g.id);
  }

  private buildGame(id: string): void {
    this.lookPly = null;
    const chatInput = h("input", { id: "chat-input", maxlength: MAX_CHAT_BYTES, placeholder: t("game.chat.placeholder"), "aria-label": t("game.chat.placeholder") });
    const chatForm = h("form", { class: "chat-form" }, chatInput, h("button", { type: "submit" }, t("game.chat.send")));
    chatForm.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = chatInput.value.trim();
      if (!text) return;
      if (new TextEncoder().encode(text).length > MAX_CHAT_BYTES) return this.notify(t("game.chat.too_long", { max: MAX_CHAT_BYTES }), true);
      if (this.send({ type: "chat", game: id, text })) chatInput.value = "";
    });
    const territory = h("input", { type: "checkbox", id: "territory", checked: this.territory });
    territory.addEventListener("change", () => {
      this.territory = territory.checked;
      localStorage.setItem(TERRITORY_KEY, this.territory ? "1" : "0");
      this.renderGame();
    });
    this.gameParts = {
      id: h("div", { class: "game", "data-game": id }),
      top: h("div", { class: "seat top" }),
      bottom: h("div", { class: "seat bottom" }),
      status: h("div", { class: "status", id: "status" }),
      result: h("div", { class: "result", id: "result" }),
      invite: h("div", { class: "invite", id: "invite-box" }),
      actions: h("div", { class: "actions", id: "actions" }),
      moves: h("ol", { class: "moves", id: "moves" }),
      chat: h("div", { class: "chat-log", id: "chat-log" }),
      // What happens in the game, for screen readers (visually hidden).
      announce: h("div", { class: "sr-only", id: "announce", "aria-live": "polite" }),
      typed: h("div", { class: "typed-move" }),
    };
    const p = this.gameParts;
    p.result.hidden = p.invite.hidden = true;
    append(p.id,
      h("div", { class: "board-col" }, p.top, this.boardView.el, p.bottom),
      h("aside", { class: "panel card" },
        h("h1", { class: "panel-title" }, t("game.title", { game: id })), p.status, p.announce, p.result, p.invite, p.actions, p.typed,
        h("label", { class: "check" }, territory, t("game.territory")),
        h("h2", {}, t("game.moves")), p.moves,
        h("h2", {}, t("game.chat")), p.chat,
        this.me ? chatForm : h("p", { class: "muted", id: "visitor-note" }, t("visitor.watching.before"), h("a", { href: "#/", id: "visitor-signin" }, t("visitor.watching.link")), t("visitor.watching.after"))));
    replaceChildren(p.typed, ...typedMoveForm(() => {
      const g = this.current ? this.games.get(this.current) : undefined;
      return g && g.myTurn() && !g.moveSent && this.lookPly === null ? g.board : null;
    }, (m) => this.sendMove(m)));
    this.setScreen("game", p.id);
  }

  private renderGame(): void {
    if (this.screen !== "game" || !this.current) return;
    const g = this.games.get(this.current);
    const p = this.gameParts;
    this.boardView.el.hidden = !g;
    if (!g) {
      replaceChildren(p.status, this.linkState === "open" ? t("game.asking") : t("connection.reconnecting"));
      return;
    }
    const flipped = (g.color === "black") !== this.flipGame;
    renderSeat(p.top, g, flipped ? "white" : "black");
    renderSeat(p.bottom, g, flipped ? "black" : "white");
    const looking = this.lookPly !== null && this.lookPly < g.moves.length ? this.lookPly : null;
    if (looking === null) {
      this.boardView.show({ board: g.board, lastMove: g.lastMove(), flipped, territory: this.territory ? territoryMap(g.board) : null, premove: g.premove.move ?? this.confirming });
    } else {
      const then = replay(g.variant, g.moves.slice(0, looking));
      this.input.disable();
      this.boardView.show({ board: then.board, lastMove: then.played[looking - 1] ?? null, flipped, territory: this.territory ? territoryMap(then.board) : null });
    }
    this.boardView.el.classList.toggle("looking-back", looking !== null);

    const status = statusLine(g, { connected: this.linkState === "open", confirming: this.confirming, premoving: this.premoving, stage: this.input.stage });
    const confirm = this.confirming && looking === null ? h("div", { class: "actions confirm-move" },
      h("button", { class: "primary", id: "confirm-move", onclick: () => { if (this.confirming) this.sendMove(this.confirming); } }, t("game.confirm_move")),
      h("button", { id: "cancel-move", onclick: () => this.cancelConfirm() }, t("common.cancel"))) : null;
    replaceChildren(p.status, h("span", g.premove.move ? { class: "premove-line" } : {}, status), confirm, g.spectators > 0 ? h("span", { class: "muted" }, ` · ${t("game.spectators", { count: g.spectators })}`) : null,
      g.problem ? h("div", { class: "error" }, g.problem) : null,
      looking !== null ? h("div", { class: "looking", id: "looking" }, t("game.looking", { ply: looking, plies: g.moves.length }) + " ",
        h("button", { id: "back-live", onclick: () => this.lookBack("live") }, t("game.back_live"))) : null);
    p.status.dataset.state = g.status;
    p.status.dataset.premove = g.premove.move ? formatMove(g.premove.move, g.board.size) : "";

    renderResult(p.result, g);
    p.typed.hidden = g.color === undefined || g.status !== "active"; // only a player types moves

    const invite = g.invite ?? this.invites.get(g.id);
    if (invite && g.status === "open" && g.color !== undefined) {
      const url = `${location.origin}/#/join/${g.id}/${invite}`;
      const copy = h("button", { id: "copy-invite" }, t("common.copy"));
      copy.addEventListener("click", async () => {
        copy.textContent = (await copyText(url)) ? t("common.copied") : t("common.copy_failed");
      });
      replaceChildren(p.invite, h("div", {}, t("game.invite.explain")), h("div", { class: "row" }, h("input", { id: "invite-link", readonly: true, value: url, "aria-label": t("game.invite.link") }), copy));
      p.invite.hidden = false;
    } else {
      p.invite.hidden = true;
    }

    const actions: HTMLElement[] = [];
    const player = g.color !== undefined;
    if (player && g.status === "active") {
      if (g.moves.length < 2) actions.push(h("button", { id: "abort", onclick: () => this.send({ type: "abort", game: g.id }) }, t("game.abort")));
      else actions.push(confirmButton("resign", t("game.resign"), t("game.resign.confirm"), () => this.send({ type: "resign", game: g.id })));
      const opponent = other(g.color!);
      if (g.offline.includes(opponent)) {
        const wait = g.claimAt !== undefined ? Math.max(0, g.claimAt - performance.now()) : 0;
        actions.push(h("button", { id: "claim", disabled: wait > 0, onclick: () => this.send({ type: "claim", game: g.id }) }, wait > 0 ? t("game.claim.in", { seconds: Math.ceil(wait / 1000) }) : t("game.claim")));
      }
    }
    if (player && g.status === "open") actions.push(h("button", { id: "cancel-game", onclick: () => { this.send({ type: "leave", game: g.id }); this.waiting = null; this.myGames.delete(g.id); location.hash = "#/"; } }, t("game.cancel_game")));
    if (player && g.status === "finished" && g.result?.reason !== "aborted") {
      const label = g.rematchSent ? t("game.rematch.sent") : g.rematchFrom ? t("game.rematch.accept", { player: g.rematchFrom }) : t("game.rematch");
      actions.push(h("button", { id: "rematch", class: g.rematchFrom ? "primary" : "", disabled: g.rematchSent, onclick: () => {
        if (this.send({ type: "rematch", game: g.id })) g.rematchSent = true;
        this.renderGame();
      } }, label));
    }
    if (g.status === "finished") actions.push(h("a", { class: "button", href: `#/replay/${g.id}`, id: "replay-link" }, t("game.replay")));
    actions.push(h("button", { id: "flip", title: t("game.flip.title"), onclick: () => { this.flipGame = !this.flipGame; this.renderGame(); } }, t("game.flip")));
    actions.push(h("a", { class: "button quiet", href: "#/", id: "back-lobby" }, t("nav.lobby")));
    replaceChildren(p.actions, ...actions);

    renderMoveList(p.moves, g.moves, looking, (ply) => {
      this.lookPly = ply;
      this.lookBack(0);
    });
    this.renderChat();
  }

  private renderChat(): void {
    if (this.screen !== "game" || !this.current) return;
    const g = this.games.get(this.current);
    const el = this.gameParts.chat;
    if (!g || !el) return;
    replaceChildren(el, ...g.chat.map((c) => h("div", { class: "line" }, h("b", {}, c.from + ": "), c.text)));
    el.scrollTop = el.scrollHeight;
  }

  private sendMove(m: Move): void {
    const g = this.current ? this.games.get(this.current) : undefined;
    if (!g) return;
    if (this.premoving) {
      this.premoving = g.premove.set(g.board, g.color!, m);
      if (!this.premoving) this.showGame(g.id); // the board changed under it: enter it again
      else this.renderGame();
      return;
    }
    if (confirmMoves() && !sameMove(this.confirming, m)) {
      // The move waits on the board (drawn as a premove is) for Confirm or Cancel.
      this.confirming = m;
      this.input.disable();
      this.renderGame();
      return;
    }
    this.confirming = null;
    if (this.send({ type: "move", game: g.id, move: formatMove(m, g.board.size) }, { kind: "move", game: g.id })) g.moveSent = true;
    else this.input.reset(g.board, g.myTurn());
    this.renderGame();
  }

  private cancelConfirm(): void {
    const g = this.current ? this.games.get(this.current) : undefined;
    this.confirming = null;
    if (g) this.input.reset(g.board, g.myTurn() && !g.moveSent);
    this.renderGame();
  }

  private tick(): void {
    if (this.screen === "computer") this.computer?.tick();
    // The tab says when a game waits for your move, so that another tab shows it too.
    let waiting = 0;
    for (const g of this.games.values()) if (g.status === "active" && g.color !== undefined && g.myTurn() && !g.moveSent) ++waiting;
    const title = waiting > 0 ? t("app.title.your_move", { count: waiting }) : t("app.name");
    if (document.title !== title) {
      document.title = title;
      const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (link) link.href = tabIcon(waiting > 0);
    }
    if (this.screen === "game" && this.current) {
      const g = this.games.get(this.current);
      if (g && g.status === "active") {
        const flipped = (g.color === "black") !== this.flipGame;
        // Your clock under LOW_TIME_MS: one warning a game.
        const left = g.color ? g.remaining(g.color) : null;
        if (left !== null && left < LOW_TIME_MS && left > 0 && g.myTurn() && !this.lowTimeWarned.has(g.id)) {
          this.lowTimeWarned.add(g.id);
          this.sounds.play("low-time");
        }
        renderSeat(this.gameParts.top, g, flipped ? "white" : "black");
        renderSeat(this.gameParts.bottom, g, flipped ? "black" : "white");
        if (g.claimAt !== undefined && Math.abs(g.claimAt - performance.now()) < 100) this.renderGame();
      }
    }
    if (this.screen === "lobby" && performance.now() - this.lastLobbyRefresh > LOBBY_REFRESH_MS) this.refreshLobby(false);
    if (this.screen === "signin" && !this.me && !this.signingIn && this.link.isOpen() && performance.now() - this.lastLobbyRefresh > LOBBY_REFRESH_MS) {
      this.lastLobbyRefresh = performance.now();
      this.send({ type: "list" });
    }
    // The tournament's "starts in N s" counts down.
    if (this.screen === "tournament" && performance.now() - this.lastTournamentRender > 1000) this.renderTournament();
  }

  // ---- archive and replay (archive_screen.ts, replay_screen.ts) ----

  private renderArchive(): void {
    const who = this.route.kind === "archive" && this.route.player ? this.route.player : this.me!;
    const now = who === this.me ? this.myRating : [...this.players, ...this.leaderboard].find((p) => p.name === who)?.rating ?? null;
    this.setScreen("archive", archiveView(this.history, who, who === this.me, now, (game) => this.exportRecord(game)));
  }

  private exportRecord(game: string): void {
    this.send({ type: "record", game, format: "text", invite: this.invites.get(game) }, { kind: "record-text", game });
  }

  private renderReplay(): void {
    this.replay.render(this.route.kind === "replay" ? this.route.game : null);
  }
}

function append(el: HTMLElement, ...children: HTMLElement[]): void {
  for (const c of children) el.appendChild(c);
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
