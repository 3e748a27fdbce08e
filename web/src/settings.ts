// The page's settings (#/settings), kept in the browser: the theme (the system's, dark or
// light), the board's colours (the desktop client's four: client/settings.cpp), coordinates on
// or off, and sound. They apply to <html> as data attributes that style.css reads, at once and
// on every later visit.
import { h, replaceChildren } from "./dom";
import type { Sounds } from "./sound";

const KEY = "amazons.settings";

export const THEMES = ["system", "dark", "light"] as const;
export const BOARDS = ["walnut", "slate", "moss", "sand"] as const;
export type Theme = (typeof THEMES)[number];
export type BoardColours = (typeof BOARDS)[number];

export interface PageSettings {
  theme: Theme;
  board: BoardColours;
  coordinates: boolean;
}

export const DEFAULT_PAGE_SETTINGS: PageSettings = { theme: "system", board: "walnut", coordinates: true };

// Kept settings, anything unknown falling back to the default.
export function readSettings(text: string | null): PageSettings {
  try {
    const s = JSON.parse(text ?? "null") as Partial<PageSettings> | null;
    return {
      theme: THEMES.includes(s?.theme as Theme) ? (s!.theme as Theme) : DEFAULT_PAGE_SETTINGS.theme,
      board: BOARDS.includes(s?.board as BoardColours) ? (s!.board as BoardColours) : DEFAULT_PAGE_SETTINGS.board,
      coordinates: typeof s?.coordinates === "boolean" ? s.coordinates : DEFAULT_PAGE_SETTINGS.coordinates,
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
}

export function loadSettings(): PageSettings {
  const s = readSettings(localStorage.getItem(KEY));
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
    const sound = h("input", { type: "checkbox", id: "setting-sound", checked: this.sounds.enabled });
    sound.addEventListener("change", () => {
      if (sound.checked !== this.sounds.enabled) this.sounds.toggle();
      this.changed();
    });
    replaceChildren(this.el,
      h("h1", {}, "Settings"),
      h("p", { class: "muted" }, "Kept in this browser."),
      choice("setting-theme", "Theme", THEMES, { system: "As the system", dark: "Dark", light: "Light" }, s.theme, (theme) => this.save({ ...this.settings, theme })),
      choice("setting-board", "Board", BOARDS, { walnut: "Walnut", slate: "Slate", moss: "Moss", sand: "Sand" }, s.board, (board) => this.save({ ...this.settings, board })),
      h("label", { class: "check" }, coords, "Coordinates on the board"),
      h("label", { class: "check" }, sound, "Sounds for moves and results"));
  }

  private save(s: PageSettings): void {
    this.settings = s;
    localStorage.setItem(KEY, JSON.stringify(s));
    applySettings(s);
  }
}
