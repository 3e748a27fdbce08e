// The screens that need neither the server nor a name: the game against the computer (#/computer),
// the analysis board (#/analysis), the lesson (#/learn) and the settings (#/settings). Each is made
// the first time it is shown and keeps its state after; the engine in this page (WebAssembly in a
// Web Worker) is started the first time a screen needs it, and the replay shares it.
import { AnalysisScreen } from "./analysis_screen";
import { ComputerScreen } from "./computer_screen";
import { BrowserEngine } from "./engine";
import { LessonScreen } from "./lesson";
import type { Route } from "./routes";
import { SettingsScreen } from "./settings";
import type { Sounds } from "./sound";

// What these screens need of the page.
export interface LocalHost {
  setScreen(name: string, el: HTMLElement): void;
  screen(): string; // the screen shown
  signedIn(): boolean;
  settingsChanged(): void; // the header again
  readonly sounds: Sounds;
}

export class LocalScreens {
  private engine: BrowserEngine | null = null;
  computer: ComputerScreen | null = null; // read by the browser tests
  private analysis: AnalysisScreen | null = null;
  private settings: SettingsScreen | null = null;
  private lesson: LessonScreen | null = null;

  constructor(private readonly host: LocalHost) {}

  pageEngine(): BrowserEngine {
    this.engine ??= new BrowserEngine(() => {
      if (this.host.screen() === "computer") this.computer?.show();
    });
    return this.engine;
  }

  // Shows the route's screen. A link to a position opens it on the analysis board, and the
  // address becomes #/analysis, so that a reload keeps what the person explored since (the board
  // keeps its tree in the browser): the route to keep is returned.
  show(route: Extract<Route, { kind: "computer" | "analysis" | "learn" | "settings" }>): Route {
    const first = this.host.screen() !== route.kind;
    switch (route.kind) {
      case "computer":
        this.computer ??= new ComputerScreen(() => this.host.signedIn(), () => this.pageEngine(), this.host.sounds);
        if (first) this.host.setScreen("computer", this.computer.el);
        this.computer.show();
        return route;
      case "settings":
        this.settings ??= new SettingsScreen(this.host.sounds, () => this.host.settingsChanged());
        if (first) this.host.setScreen("settings", this.settings.el);
        this.settings.show();
        return route;
      case "learn":
        this.lesson ??= new LessonScreen();
        if (first) this.host.setScreen("learn", this.lesson.el);
        this.lesson.show();
        return route;
      case "analysis":
        this.analysis ??= new AnalysisScreen(() => this.pageEngine());
        if (first) this.host.setScreen("analysis", this.analysis.el);
        if (route.input) {
          this.analysis.open(route.input, route.ply);
          history.replaceState(null, "", "#/analysis");
          return { kind: "analysis" };
        }
        if (first) this.analysis.open(null);
        return route;
    }
  }

  // Another screen is shown: the engine stops thinking for the one left.
  left(next: string): void {
    if (next !== "analysis") this.analysis?.hide();
    if (next !== "computer") this.computer?.hide();
  }

  tick(): void {
    if (this.host.screen() === "computer") this.computer?.tick();
  }
}
