// The notices over the screen: what happened that the screen shown does not say (a challenge, a
// refusal, a game's player gone), each for a while. Read to screen readers as it appears.
import { h } from "./dom";
import { t } from "./i18n";
import { icon } from "./icons";

const NOTICE_MS = 10_000;
const MAX_NOTICES = 5;

export class Notices {
  readonly el = h("div", { class: "notices", id: "notices", "aria-live": "polite" });

  // A notice for a while (errors twice as long). One with a `key` replaces the notice of that key,
  // and dismiss(key) takes it away when what it announced is answered (a challenge withdrawn).
  show(text: string, error = false, key?: string): void {
    if (key) this.dismiss(key);
    const close = h("button", { class: "close", "aria-label": t("notice.dismiss") }, icon("close"));
    const n = h("div", { class: `notice${error ? " error" : ""}`, role: error ? "alert" : "status", "data-key": key }, h("span", {}, text), close);
    close.addEventListener("click", () => n.remove());
    this.el.appendChild(n);
    while (this.el.childElementCount > MAX_NOTICES) this.el.firstElementChild!.remove();
    window.setTimeout(() => n.remove(), error ? NOTICE_MS * 2 : NOTICE_MS);
  }

  // Takes away the notices whose key is `key`, or starts with it when `prefix`.
  dismiss(key: string, prefix = false): void {
    for (const n of Array.from(this.el.children)) {
      const k = (n as HTMLElement).dataset.key;
      if (k !== undefined && (prefix ? k.startsWith(key) : k === key)) n.remove();
    }
  }
}
