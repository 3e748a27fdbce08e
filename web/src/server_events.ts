// The server's messages, each a change of the page's state (the store, a game's model) followed by
// what shows it: the screen that reads it drawn again, a sound, a notice, a notification when the
// tab is hidden. Errors are server_errors.ts's. Nothing here decides a game: the server has.
import type { ServerMessage, ServerMessageOf } from "@protocol";
import { download } from "./dom";
import { GameModel, playerText, ratedText, resultReason, resultTitle, rulesName, sideName, timeText } from "./game";
import { t } from "./i18n";
import { notifyWhenHidden } from "./notify";
import type { Page } from "./page";
import { other, parseMove } from "./rules";
import { onServerError } from "./server_errors";
import { saveSession } from "./session";
import { moveSounds } from "./sound";
import type { Pending } from "./store";
import { isCorrespondence } from "./your_turn";

export class ServerEvents {
  private turnsSeen = false; // the first list after signing in is shown without notices

  constructor(private readonly page: Page) {}

  // `ctx` is what the request this answers was for.
  on(m: ServerMessage, ctx: Pending | undefined): void {
    const { page } = this;
    const store = page.store;
    switch (m.type) {
      case "welcome":
        return this.welcome(m);
      case "error":
        return onServerError(page, m, ctx);
      case "games":
        store.openGames = m.games;
        if (!store.me) page.signIn.showLiveGames(m.games);
        return page.lobby.renderLists();
      case "players":
        store.players = m.players;
        for (const p of m.players)
          if (p.name === store.me && p.rating !== store.myRating) {
            store.myRating = p.rating;
            page.renderHeader();
          }
        return page.lobby.renderLists();
      case "leaderboard":
        store.leaderboard = m.players;
        page.redraw("leaderboard");
        return page.lobby.renderLists();
      case "created":
        store.waiting = { game: m.game, invite: m.invite };
        store.myGames.add(m.game);
        if (m.invite) store.invites.set(m.game, m.invite);
        location.hash = `#/game/${m.game}`;
        return;
      case "seeking":
        store.seeking = m;
        return page.lobby.renderLists();
      case "challenge":
        store.challenges.set(m.challenge, m);
        page.notices.show(t("challenge.received", { player: playerText(m.from), rules: rulesName(m.rules), time: timeText(m.time), rated: ratedText(m.rated) }), false, `challenge-${m.challenge}`);
        notifyWhenHidden(t("challenge.received.title", { player: m.from.name }), t("challenge.received.body", { rules: rulesName(m.rules), time: timeText(m.time), rated: ratedText(m.rated) }), `challenge-${m.challenge}`);
        return page.lobby.renderLists();
      case "challenge_sent":
        return page.notices.show(t("challenge.sent", { player: m.to }), false, `challenge-${m.challenge}`);
      case "challenge_closed":
        store.challenges.delete(m.challenge);
        page.notices.show(m.reason === "declined" ? t("challenge.declined") : t("challenge.withdrawn"), false, `challenge-${m.challenge}`);
        return page.lobby.renderLists();
      case "start":
        return this.start(m);
      case "state":
        return this.state(m);
      case "moved":
        return this.moved(m);
      case "end":
        return this.end(m);
      case "chat": {
        store.games.get(m.game)?.chat.push({ from: m.from, text: m.text });
        if (m.game === store.current) page.game.renderChat();
        return;
      }
      case "presence": {
        const g = store.games.get(m.game);
        if (!g) return;
        g.offline = g.offline.filter((c) => c !== m.color);
        if (!m.online) g.offline.push(m.color);
        g.claimAt = !m.online && m.claim_in_ms !== undefined ? performance.now() + m.claim_in_ms : undefined;
        page.notices.show(m.online ? t("game.presence.online", { player: m.player }) : t("game.presence.offline", { player: m.player }));
        if (m.game === store.current) page.game.render();
        return;
      }
      case "rematch_offer": {
        const g = store.games.get(m.game);
        if (g) g.rematchFrom = m.from;
        page.notices.show(t("game.rematch.offered_by", { player: m.from }));
        if (m.game === store.current) page.game.render();
        return;
      }
      case "history":
        store.history = m;
        return page.redraw("archive");
      case "record":
        return this.record(m, ctx);
      case "your_turn":
        return this.yourTurn(m);
      case "tournaments":
        store.tournaments.setList(m.tournaments);
        return page.lobby.renderLists();
      case "tournament":
        store.tournaments.setDetail(m);
        if (ctx?.kind === "tournament-create") {
          page.tournamentAnswered(null);
          location.hash = `#/tournament/${m.tournament.id}`;
          return;
        }
        return page.redraw("tournament");
      case "ok":
        if (ctx?.kind === "other" && ctx.what === "unseek") store.seeking = null;
        if (ctx?.kind === "tournament-join" || ctx?.kind === "tournament-withdraw") {
          store.tournaments.setProblem(ctx.tournament, null);
          page.notices.show(ctx.kind === "tournament-join" ? t("tournament.joined") : t("tournament.withdrew"));
          page.redraw("tournament");
        }
        return page.lobby.renderLists();
      case "shutdown":
        console.info("server shutting down:", m.message);
        return page.notices.show(t("connection.shutdown"), true);
      case "ping":
      case "pong":
        return;
    }
  }

  private welcome(m: ServerMessageOf<"welcome">): void {
    const { page } = this;
    const store = page.store;
    store.me = m.name;
    store.myRating = m.player.rating;
    page.signIn.welcomed();
    saveSession({ name: m.name, token: m.token });
    for (const g of m.games) store.myGames.add(g);
    store.yourTurns.clear();
    this.turnsSeen = false;
    page.renderHeader();
    // A spectator's seat is not resumed by the server: watch the shown game again.
    if (store.current && !store.myGames.has(store.current)) page.watch(store.current);
    page.followRoute();
  }

  private start(m: ServerMessageOf<"start">): void {
    const { page } = this;
    const store = page.store;
    // A game began: the challenges announced are answered (accepted, or moot while it is played).
    page.notices.dismiss("challenge-", true);
    const g = GameModel.fromStart(m);
    const old = store.games.get(m.game);
    if (old) g.chat = old.chat;
    g.invite = store.invites.get(m.game);
    store.games.set(m.game, g);
    if (store.waiting?.game === m.game) store.waiting = null;
    if (m.color) {
      store.myGames.add(m.game);
      store.seeking = null;
      page.sounds.play("start");
      if (store.current !== m.game) location.hash = `#/game/${m.game}`;
    }
    if (m.game === store.current) page.game.show(m.game);
  }

  private state(m: ServerMessageOf<"state">): void {
    const { page } = this;
    const store = page.store;
    const g = GameModel.fromState(m, store.games.get(m.game));
    g.invite = store.invites.get(m.game);
    store.games.set(m.game, g);
    if (g.problem) page.notices.show(g.problem, true);
    if (m.color && m.status !== "finished") store.myGames.add(m.game);
    const onLobby = page.route.kind === "lobby" && page.screen === "lobby";
    if (m.game === store.current) page.game.show(m.game);
    else if (!store.me && page.signIn.invite?.game === m.game) page.render();
    // A real-time game resumed at sign-in is where the player is needed; a correspondence game
    // waits in the Your turn list instead.
    else if (onLobby && m.color && m.status === "active" && !isCorrespondence(g.time)) location.hash = `#/game/${m.game}`;
  }

  private moved(m: ServerMessageOf<"moved">): void {
    const { page } = this;
    const store = page.store;
    const g = store.games.get(m.game);
    if (!g) return;
    const before = g.board.clone();
    if (g.applyMoved(m) === "resync") return page.watch(m.game);
    g.problem = undefined;
    if (!g.myTurn() && store.yourTurns.drop(m.game)) page.lobby.renderLists();
    if (m.game !== store.current) return;
    const played = parseMove(m.move, before.size);
    page.sounds.playAll(played && before.isLegal(played) ? moveSounds(before, played, g.myTurn()) : [g.myTurn() ? "your-move" : "move"]);
    const mover = sideName(other(g.board.toMove));
    page.game.announce(g.myTurn() ? t("game.announce.played_your_move", { side: mover, move: m.move }) : t("game.announce.played", { side: mover, move: m.move }));
    if (g.myTurn()) notifyWhenHidden(t("game.your_move"), t("game.notify.played", { side: mover, move: m.move, game: m.game }), `turn-${m.game}`);
    page.game.show(m.game);
  }

  private yourTurn(m: ServerMessageOf<"your_turn">): void {
    const { page } = this;
    const fresh = page.store.yourTurns.update(m.games, performance.now());
    if (this.turnsSeen)
      for (const x of fresh)
        if (x.game !== page.store.current) {
          page.notices.show(t("your_turn.notice", { game: x.game, opponent: x.opponent, rules: rulesName(x.rules) }));
          notifyWhenHidden(t("game.your_move"), t("your_turn.notify", { game: x.game, opponent: x.opponent, rules: rulesName(x.rules) }), `turn-${x.game}`);
        }
    this.turnsSeen = true;
    page.lobby.renderLists();
  }

  private end(m: ServerMessageOf<"end">): void {
    const { page } = this;
    const store = page.store;
    const g = store.games.get(m.game);
    store.myGames.delete(m.game);
    store.yourTurns.drop(m.game);
    if (store.waiting?.game === m.game) store.waiting = null;
    if (!g) return;
    g.applyEnd(m);
    if (m.game === store.current) {
      page.sounds.play("end");
      if (g.result) page.game.announce(t("game.announce.result", { title: resultTitle(g.result, g.color), reason: resultReason(g.result) }));
    }
    const mine = g.color === "white" ? m.white_rating : g.color === "black" ? m.black_rating : undefined;
    if (mine) {
      store.myRating = mine.rating;
      page.renderHeader();
    }
    if (m.game === store.current) page.game.show(m.game);
  }

  // A record: the text one asked for by Export is downloaded; a JSON one is the replay's.
  private record(m: ServerMessageOf<"record">, ctx: Pending | undefined): void {
    const { page } = this;
    if (ctx?.kind === "record-text" || m.format === "text") {
      if (typeof m.record !== "string") return page.notices.show(t("record.not_text"), true);
      download(`amazons-game-${m.game}.txt`, m.record);
      return page.notices.show(t("record.saved", { file: `amazons-game-${m.game}.txt` }));
    }
    if (page.replay.received(m.game, m.record)) page.redraw("replay");
  }
}
