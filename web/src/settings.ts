// The page's settings (#/settings), kept in the browser: the theme (the system's, dark or
// light), the board's colours (the desktop client's four: client/settings.cpp), coordinates on
// or off, sound, confirming each move before it is sent, and how fast moves slide on the board.
// They apply to <html> as data attributes that style.css and the board read, at once and on
// every later visit.
import { h, replaceChildren } from "./dom";
import { language, languageChosen, languages, setLanguage, t } from "./i18n";
import { askPermission } from "./notify";
import type { Sounds } from "./sound";

export const SETTINGS_KEY = "amazons.settings";

export const THEMES = ["system", "dark", "light"] as const;
export const BOARDS = ["walnut", "slate", "moss", "sand"] as const;
export const ANIMATIONS = ["off", "fast", "normal", "slow"] as const;
export type Animation = (typeof ANIMATIONS)[number];
const ANIMATION_MS: Record<Animation, number> = { off: 0, fast: 120, normal: 220, slow: 400 };
export type Theme = (typeof THEMES)[number];
export type BoardColours = (typeof BOARDS)[number];

export interface PageSettings {
  theme: Theme;
  board: BoardColours;
  coordinates: boolean;
  confirmMoves: boolean; // online moves wait for a Confirm click
  animation: Animation;
  notify: boolean; // browser notifications while the tab is hidden (notify.ts)
}

export const DEFAULT_PAGE_SETTINGS: PageSettings = { theme: "system", board: "walnut", coordinates: true, confirmMoves: false, animation: "normal", notify: false };

// Kept settings, anything unknown falling back to the default.
export function readSettings(text: string | null): PageSettings {
  try {
    const s = JSON.parse(text ?? "null") as Partial<PageSettings> | null;
    return {
      theme: THEMES.includes(s?.theme as Theme) ? (s!.theme as Theme) : DEFAULT_PAGE_SETTINGS.theme,
      board: BOARDS.includes(s?.board as BoardColours) ? (s!.board as BoardColours) : DEFAULT_PAGE_SETTINGS.board,
      coordinates: typeof s?.coordinates === "boolean" ? s.coordinates : DEFAULT_PAGE_SETTINGS.coordinates,
      confirmMoves: typeof s?.confirmMoves === "boolean" ? s.confirmMoves : DEFAULT_PAGE_SETTINGS.confirmMoves,
      animation: ANIMATIONS.includes(s?.animation as Animation) ? (s!.animation as Animation) : DEFAULT_PAGE_SETTINGS.animation,
      notify: typeof s?.notify === "boolean" ? s.notify : DEFAULT_PAGE_SETTINGS.notify,
    };
  } catch {
    return { ...DEFAULT_PAGE_SETTINGS };
  }
}

export function applySettings(s: PageSettings): void {
  const root = document.documentElement;
  root.dataset.theme = s.theme;
  root.dataset.board = s.board;
  root.dataset.coordinates = s.coordinates ? "on" : "off";
  root.dataset.confirm = s.confirmMoves ? "on" : "off";
  root.dataset.animation = s.animation;
  root.dataset.notify = s.notify ? "on" : "off";
}

// Whether online moves wait for a Confirm click (the setting as applied to the page).
export function confirmMoves(): boolean {
  return document.documentElement.dataset.confirm === "on";
}

// How long a move slides on the board, in ms: 0 when off, and at "normal" (the default) when
// the system asks for reduced motion; "fast" and "slow" are a choice made here and are kept.
export function moveAnimationMs(): number {
  const a = document.documentElement.dataset.animation as Animation | undefined;
  const name = a && ANIMATIONS.includes(a) ? a : DEFAULT_PAGE_SETTINGS.animation;
  const reduced = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
  return reduced && name === "normal" ? 0 : ANIMATION_MS[name];
}

export function loadSettings(): PageSettings {
  const s = readSettings(localStorage.getItem(SETTINGS_KEY));
  applySettings(s);
  return s;
}

export class SettingsScreen {
  readonly el = h("section", { class: "card settings", id: "settings" });
  private settings = loadSettings();

  // `sounds`: the page's sounds, switched here too; `changed` tells the page (the header shows
  // the sound switch).
  constructor(private readonly sounds: Sounds, private readonly changed: () => void) {}

  show(): void {
    const s = this.settings;
    const choice = <T extends string>(id: string, label: string, values: readonly T[], names: Record<T, string>, current: T, set: (v: T) => void) => {
      const select = h("select", { id }, ...values.map((v) => h("option", { value: v, selected: v === current }, names[v])));
      select.addEventListener("change", () => set(select.value as T));
      return h("label", {}, label, select);
    };
    const coords = h("input", { type: "checkbox", id: "setting-coordinates", checked: s.coordinates });
    coords.addEventListener("change", () => this.save({ ...this.settings, coordinates: coords.checked }));
    const confirm = h("input", { type: "checkbox", id: "setting-confirm", checked: s.confirmMoves });
    confirm.addEventListener("change", () => this.save({ ...this.settings, confirmMoves: confirm.checked }));
    const notify = h("input", { type: "checkbox", id: "setting-notify", checked: s.notify });
    const notifyProblem = h("span", { class: "error", id: "setting-notify-problem", role: "alert" });
    notify.addEventListener("change", () => {
      replaceChildren(notifyProblem);
      if (!notify.checked) return this.save({ ...this.settings, notify: false });
      void askPermission().then((granted) => {
        notify.checked = granted;
        this.save({ ...this.settings, notify: granted });
        if (!granted) replaceChildren(notifyProblem, t("settings.notify.refused"));
      });
    });
    const sound = h("input", { type: "checkbox", id: "setting-sound", checked: this.sounds.enabled });
    sound.addEventListener("change", () => {
      if (sound.checked !== this.sounds.enabled) this.sounds.toggle();
      this.changed();
    });
    // The language: the browser's ("auto") or one chosen; each in its own words. The page is
    // loaded again in it, since the screens already built keep their texts.
    const languageNames: Record<string, string> = { auto: t("settings.language.auto") };
    for (const l of languages()) languageNames[l.code] = l.name;
    const languageChoice = choice("setting-language", t("settings.language"), Object.keys(languageNames), languageNames, languageChosen() ? language() : "auto", (code) => {
      setLanguage(code === "auto" ? null : code);
      location.reload();
    });
    replaceChildren(this.el,
      h("h1", {}, t("nav.settings")),
      h("p", { class: "muted" }, t("settings.kept")),
      languageChoice,
      choice("setting-theme", t("settings.theme"), THEMES, { system: t("settings.theme.system"), dark: t("settings.theme.dark"), light: t("settings.theme.light") }, s.theme, (theme) => this.save({ ...this.settings, theme })),
      choice("setting-board", t("settings.board"), BOARDS, { walnut: t("settings.board.walnut"), slate: t("settings.board.slate"), moss: t("settings.board.moss"), sand: t("settings.board.sand") }, s.board, (board) => this.save({ ...this.settings, board })),
      h("label", { class: "check" }, coords, t("settings.coordinates")),
      h("label", { class: "check" }, sound, t("nav.sound.title")),
      h("label", { class: "check" }, confirm, t("settings.confirm")),
      h("label", { class: "check" }, notify, t("settings.notify")), notifyProblem,
      choice("setting-animation", t("settings.animation"), ANIMATIONS, { off: t("settings.animation.off"), fast: t("settings.animation.fast"), normal: t("settings.animation.normal"), slow: t("settings.animation.slow") }, s.animation, (animation) => this.save({ ...this.settings, animation })));
  }

  private save(s: PageSettings): void {
    this.settings = s;
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(s));
    applySettings(s);
  }
}
