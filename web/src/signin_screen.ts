// The first screen, signed out (#/ and any address that needs a name): the board and the rules in
// two lines, the ways in that need no name (the computer, the lesson, the analysis board), the
// games being played now, and the sign-in form; an invite link (#/join/GAME/CODE) puts who invites
// to what above the form, which then seats the visitor in one click. While a sign-in is under way
// it says so. The page sends `hello` (main.ts); this screen keeps what the form was given.
import { BUILTIN_VARIANTS, type GameSummary } from "@protocol";
import { BoardView } from "./board_view";
import { h, replaceChildren } from "./dom";
import { t } from "./i18n";
import { MoveInput } from "./input";
import type { Route } from "./routes";
import { Board } from "./rules";
import { forgetSession, loadSession } from "./session";
import type { Store } from "./store";
import { inviteView, liveGamesView } from "./visitor";

const NAME = /^[A-Za-z0-9_.-]{1,32}$/;

export interface SignIn {
  name: string;
  password?: string;
}

export class SignInScreen {
  // The sign-in under way (sent or waiting for the connection), and why the last one failed.
  signingIn: SignIn | null = null;
  problem = "";
  // The invite's game being looked up before signing in, and why it cannot be shown.
  invite: { game: string; problem: string | null } | null = null;
  private triedName = ""; // kept in the form after a refusal
  private guestName = ""; // offered to a first visitor
  private readonly liveSlot = h("div", { class: "live-slot" });

  constructor(private readonly store: Store, private readonly submit: () => void) {
    const saved = loadSession();
    if (saved) this.signingIn = { name: saved.name };
  }

  welcomed(): void {
    this.signingIn = null;
    this.problem = "";
  }

  refused(problem: string): void {
    this.signingIn = null;
    this.problem = problem;
  }

  // The games being played now, under the board.
  showLiveGames(games: GameSummary[]): void {
    replaceChildren(this.liveSlot, liveGamesView(games));
  }

  view(route: Route): HTMLElement {
    if (this.signingIn && !this.problem)
      return h("section", { class: "card narrow" }, h("h1", {}, t("signin.signing_in")), h("p", { class: "muted" }, t("signin.as", { name: this.signingIn.name })));
    const name = h("input", { id: "name", name: "name", autocomplete: "username", maxlength: 32, required: true, placeholder: t("signin.name.placeholder") });
    // The name tried last (kept after a refusal), else the saved one, else a guest name to accept.
    this.guestName ||= `guest${Math.floor(1000 + Math.random() * 9000)}`;
    name.value = this.triedName || loadSession()?.name || this.guestName;
    const password = h("input", { id: "password", type: "password", autocomplete: "current-password", placeholder: t("signin.password.placeholder") });
    const error = h("p", { class: "error", id: "signin-error" }, this.problem);
    const invite = route.kind === "join" ? inviteView(route.game, this.store.games.get(route.game), this.invite?.game === route.game ? this.invite.problem : null) : null;
    const invited = route.kind === "join" && this.store.games.get(route.game)?.status === "open";
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
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const n = name.value.trim();
      if (!NAME.test(n)) {
        error.textContent = t("signin.name.bad");
        return;
      }
      this.problem = "";
      this.triedName = n;
      this.signingIn = { name: n, password: password.value || undefined };
      if (loadSession()?.name !== n) forgetSession();
      this.submit();
    });
    const board = new BoardView(new MoveInput(), () => undefined);
    board.show({ board: Board.fromVariant(BUILTIN_VARIANTS[0]), lastMove: null, flipped: false, territory: null });
    const side = h("section", { class: "home-side" },
      h("div", { class: "card" },
        h("h1", {}, t("home.title")),
        h("p", { id: "rules-summary" }, t("home.rules_summary")),
        h("div", { class: "home-actions" },
          h("a", { class: "button primary", href: "#/computer", id: "play-computer" }, t("home.play_computer")),
          h("a", { class: "button", href: "#/learn", id: "learn" }, t("home.learn")),
          h("a", { class: "button", href: "#/analysis", id: "open-analysis" }, t("home.analysis_board"))),
        h("p", { class: "muted" }, t("home.no_signin"))),
      form);
    // Invited: who invites to what, and the form that accepts, come first.
    if (invite) side.prepend(invite, form);
    return h("div", { class: "home", id: "home" }, h("section", { class: "home-board" }, board.el, this.liveSlot), side);
  }
}
