// The page's header (the name, the connection, sound, settings and the signed-in player's links)
// and the tab's title and icon, which say when a game waits for your move.
import { h, replaceChildren } from "./dom";
import { t } from "./i18n";
import { icon } from "./icons";
import type { Sounds } from "./sound";
import type { Store } from "./store";

export interface HeaderActions {
  signOut(): void;
  redraw(): void; // the header again (after the sound switch)
}

export function renderHeader(el: HTMLElement, store: Store, sounds: Sounds, actions: HeaderActions): void {
  const state =
    store.linkState === "open"
      ? t("connection.online")
      : store.linkState === "reconnecting"
      ? t("connection.reconnecting")
      : store.linkState === "stopped"
      ? t("connection.disconnected")
      : t("connection.connecting");
  const conn = h("span", { class: `conn ${store.linkState}`, id: "conn", title: store.linkDetail }, state);
  const nav = store.me
    ? h(
        "nav",
        {},
        h("a", { href: "#/" }, t("nav.lobby")),
        h("a", { href: "#/archive", id: "nav-archive" }, t("nav.my_games")),
        h("a", { href: "#/analysis", id: "nav-analysis" }, t("nav.analysis")),
        h("span", { class: "me", id: "me" }, `${store.me} (${store.myRating})`),
        h("button", { class: "quiet", id: "signout", onclick: () => actions.signOut() }, t("nav.sign_out")),
      )
    : null;
  const sound = h("button", { class: "quiet", id: "sound", "aria-pressed": sounds.enabled ? "true" : "false", title: t("nav.sound.title"),
    onclick: () => { sounds.toggle(); actions.redraw(); } }, sounds.enabled ? t("nav.sound.on") : t("nav.sound.off"));
  const settings = h("a", { href: "#/settings", id: "nav-settings" }, t("nav.settings"));
  replaceChildren(el, h("a", { class: "brand", href: "#/" }, h("span", { class: "crown" }, icon("queen")), t("app.name")), conn, sound, settings, nav);
}

// The tab's icon: a queen on the accent colour; with a red dot while a game waits for your move.
function tabIcon(yourMove: boolean): string {
  const dot = yourMove ? '<circle cx="50" cy="14" r="13" fill="#d23c2c" stroke="#fff" stroke-width="3"/>' : "";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><desc>${yourMove ? "your move" : "amazons"}</desc>` +
    '<circle cx="32" cy="32" r="30" fill="#e2aa4c"/><path d="M16 44h32l3-20-10 8-9-14-9 14-10-8z" fill="#1e1a14"/>' + `${dot}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

// The tab says when games wait for your move (a move not yet sent), so that another tab shows it.
export function updateTab(store: Store): void {
  let waiting = 0;
  for (const g of store.games.values()) if (g.status === "active" && g.color !== undefined && g.myTurn() && !g.moveSent) ++waiting;
  const title = waiting > 0 ? t("app.title.your_move", { count: waiting }) : t("app.name");
  if (document.title === title) return;
  document.title = title;
  const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (link) link.href = tabIcon(waiting > 0);
}
