// Short sounds for what happens in a game, made in the page with Web Audio (no files to load): a
// soft knock for a queen's move (a brighter one when it becomes your move), a tick for its arrow,
// a low fall when a move shuts a queen in (its last free square taken), a double beep when your
// clock falls under ten seconds, two notes at the end and two notes up when a game of yours
// starts. On by default, switched off in the header or the settings; the choice is kept in the
// browser. A browser that allows no sound before the person has clicked somewhere simply stays
// quiet until then.
import type { Board, Move } from "./rules";

export type SoundKind = "move" | "your-move" | "arrow" | "capture" | "low-time" | "end" | "start";

const KEY = "amazons.sound";

// Under this much on your clock, the low-time warning sounds (once a game).
export const LOW_TIME_MS = 10_000;

// Each kind as notes: frequency (Hz), start and length (s), loudness (0-1). The arrow's tick
// starts after the queen's knock, as the arrow flies after the queen lands.
const NOTES: Record<SoundKind, ReadonlyArray<readonly [number, number, number, number]>> = {
  move: [[220, 0, 0.07, 0.35]],
  "your-move": [[440, 0, 0.08, 0.3]],
  arrow: [[1320, 0.1, 0.04, 0.15]],
  capture: [[330, 0.18, 0.12, 0.3], [247, 0.31, 0.22, 0.3]],
  "low-time": [[880, 0, 0.06, 0.25], [880, 0.12, 0.06, 0.25]],
  end: [[523, 0, 0.15, 0.3], [392, 0.16, 0.25, 0.3]],
  start: [[392, 0, 0.12, 0.25], [523, 0.13, 0.2, 0.3]],
};

// The sounds of move `m` played on `before`: the queen (brighter when the move makes it
// `yourMoveNext`), its arrow, and a capture when it leaves a queen that could move with none.
export function moveSounds(before: Board, m: Move, yourMoveNext: boolean): SoundKind[] {
  const kinds: SoundKind[] = [yourMoveNext ? "your-move" : "move", "arrow"];
  const after = before.clone();
  after.play(m);
  // Each queen where it stands after the move, against where it stood before (the mover's moved).
  const shutIn = [...after.queens("white"), ...after.queens("black")].some((q) =>
    after.reach(q).length === 0 && before.reach(q === m.to ? m.from : q).length > 0);
  if (shutIn) kinds.push("capture");
  return kinds;
}

export class Sounds {
  enabled: boolean;
  private context: AudioContext | null = null;
  private kinds: SoundKind[] = []; // the last sounds made, for tests (data-sound-kinds on <body>)

  constructor() {
    this.enabled = localStorage.getItem(KEY) !== "0";
  }

  toggle(): void {
    this.enabled = !this.enabled;
    localStorage.setItem(KEY, this.enabled ? "1" : "0");
    if (this.enabled) this.play("move");
  }

  playAll(kinds: readonly SoundKind[]): void {
    for (const k of kinds) this.play(k);
  }

  play(kind: SoundKind): void {
    if (!this.enabled || typeof AudioContext === "undefined") return;
    try {
      this.context ??= new AudioContext();
      const ctx = this.context;
      if (ctx.state === "suspended") void ctx.resume();
      const now = ctx.currentTime;
      for (const [frequency, start, length, loudness] of NOTES[kind]) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = "triangle";
        osc.frequency.value = frequency;
        gain.gain.setValueAtTime(0, now + start);
        gain.gain.linearRampToValueAtTime(loudness, now + start + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.001, now + start + length);
        osc.connect(gain).connect(ctx.destination);
        osc.start(now + start);
        osc.stop(now + start + length + 0.02);
      }
      this.kinds = [...this.kinds, kind].slice(-20);
      document.body.dataset.soundKinds = this.kinds.join(" ");
    } catch {
      /* no sound is no loss */
    }
  }
}
