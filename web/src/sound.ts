// Short sounds for what happens in a game, made in the page with Web Audio (no files to load): a
// soft knock for a move, a brighter one when it becomes your move, two notes at the end. On by
// default and switched off in the header; the choice is kept in the browser. Also two notes up
// when a game of yours starts. A browser that
// allows no sound before the person has clicked somewhere simply stays quiet until then.
export type SoundKind = "move" | "your-move" | "end" | "start";

const KEY = "amazons.sound";

// Each kind as notes: frequency (Hz), start and length (s), loudness (0-1).
const NOTES: Record<SoundKind, ReadonlyArray<readonly [number, number, number, number]>> = {
  move: [[220, 0, 0.07, 0.35]],
  "your-move": [[440, 0, 0.08, 0.3]],
  end: [[523, 0, 0.15, 0.3], [392, 0.16, 0.25, 0.3]],
  start: [[392, 0, 0.12, 0.25], [523, 0.13, 0.2, 0.3]],
};

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
