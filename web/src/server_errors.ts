// The server's refusals, each put in the context of what was asked (store.ts's Pending): a
// sign-in refused goes back to the form with the reason, a join of one's own or a full game
// watches it instead, a move refused is taken back, a tournament's refusal stays on its screen.
// The person reads the page's own words for the code (errors.ts); the server's go to the console.
import type { ServerMessageOf } from "@protocol";
import { errorText } from "./errors";
import { t } from "./i18n";
import type { Page } from "./page";
import { forgetSession } from "./session";
import type { Pending } from "./store";

// The codes that end a sign-in whatever was asked.
const SIGN_IN_REFUSALS = ["auth_failed", "name_taken", "protocol_version", "tls_required"];

export function onServerError(page: Page, m: ServerMessageOf<"error">, ctx: Pending | undefined): void {
  console.info("server error:", m.code, m.message, m.game ?? "");
  const store = page.store;
  let text = errorText(m);
  if (m.code === "tls_required" && location.protocol === "http:")
    text += " " + t("error.tls_required.open", { url: `https://${location.host}/` });
  if ((ctx?.kind === "hello" || SIGN_IN_REFUSALS.includes(m.code)) && (ctx?.kind === "hello" || !store.me)) {
    // A saved session the server no longer takes is forgotten, and the form says why.
    const withToken = ctx?.kind === "hello" && ctx.withToken;
    if (withToken) forgetSession();
    store.me = null;
    page.signIn.refused(withToken ? t("signin.session_ended", { error: text }) : text);
    page.reconnect("signing in again");
    page.renderHeader();
    page.render();
    return;
  }
  if (m.code === "replaced") {
    page.stop(t("connection.replaced.detail"));
    page.notices.show(t("connection.replaced"), true);
    return;
  }
  switch (ctx?.kind) {
    case "join":
      if (m.code !== "not_allowed" && m.code !== "game_full") break;
      // Your own game, or both seats taken: watch it instead.
      page.watch(ctx.game, ctx.invite);
      if (m.code === "game_full") page.notices.show(t("game.full_watching", { game: ctx.game }));
      return;
    case "invite":
      if (page.signIn.invite?.game === ctx.game) page.signIn.invite.problem = text;
      page.render();
      return;
    case "tournament-create":
      page.tournamentAnswered(text);
      return;
    case "tournament-join":
    case "tournament-withdraw": {
      // Refused (started, full, already in, not in...): the reason stays on the screen.
      const joining = ctx.kind === "tournament-join";
      if (m.code === "not_allowed") text = joining ? t("tournament.not_allowed") : t("tournament.not_in");
      store.tournaments.setProblem(ctx.tournament, joining ? t("tournament.join_refused", { error: text }) : t("tournament.withdraw_refused", { error: text }));
      page.notices.show(t("tournament.error", { error: text }), true);
      page.redraw("tournament");
      return;
    }
    case "move": {
      const g = store.games.get(ctx.game);
      if (g) {
        g.moveSent = false;
        g.problem = t("game.move_refused.long", { error: text });
      }
      page.notices.show(t("game.move_refused", { error: text }), true);
      if (ctx.game === store.current) page.game.render();
      return;
    }
  }
  if ((ctx?.kind === "watch" || ctx?.kind === "join") && store.current === ctx.game && !store.games.has(ctx.game)) {
    // The game the address names cannot be shown: say why and go back to the lobby.
    page.notices.show(t("game.error", { game: ctx.game, error: text }), true);
    location.hash = "#/";
    return;
  }
  page.notices.show(m.game ? t("game.error", { game: m.game, error: text }) : text, true);
}
