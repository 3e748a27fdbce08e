// One WebSocket to the server's /ws on the page's own host: each text frame one JSON message of
// docs/PROTOCOL.md. Keeps the line alive (answers the server's pings, pings every 15 s itself,
// treats 45 s of silence as a dead line) and reconnects with back-off; the owner logs in again
// from onOpen. Everything runs on the page's one thread.
import type { ClientMessage, ServerMessage } from "@protocol";

export type LinkState = "connecting" | "open" | "reconnecting" | "stopped";

export interface LinkHandlers {
  open(): void;
  message(m: ServerMessage): void;
  state(s: LinkState, detail: string): void;
}

const PING_EVERY_MS = 15_000;
const DEAD_AFTER_MS = 45_000;
// Back-off between attempts: doubles from the first to the last, with jitter so that many
// pages do not all come back in the same instant after a server restart.
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

export function defaultUrl(): string {
  return (location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + "/ws";
}

export class Link {
  private ws: WebSocket | null = null;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: number | undefined;
  private pingTimer: number | undefined;
  private lastHeard = 0;
  private lastPing = 0;
  private stopped = false;
  private everOpen = false;

  constructor(private readonly url: string, private readonly on: LinkHandlers) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  // Closes for good (no reconnect), e.g. after "replaced".
  stop(reason: string): void {
    this.stopped = true;
    window.clearTimeout(this.retryTimer);
    window.clearInterval(this.pingTimer);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.on.state("stopped", reason);
  }

  isOpen(): boolean {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(m: ClientMessage): boolean {
    if (!this.isOpen()) return false;
    this.ws!.send(JSON.stringify(m));
    return true;
  }

  // Drops the current socket and reconnects (after a dead line, or for tests of resuming).
  reconnect(why: string): void {
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = ws.onmessage = ws.onerror = ws.onopen = null;
      ws.close();
    }
    this.scheduleRetry(why);
  }

  private connect(): void {
    this.on.state(this.everOpen ? "reconnecting" : "connecting", "");
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch (e) {
      this.scheduleRetry(String(e));
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.everOpen = true;
      this.retryMs = RETRY_FIRST_MS;
      this.lastHeard = this.lastPing = Date.now();
      window.clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => this.tick(), 1000);
      this.on.state("open", "");
      this.on.open();
    };
    ws.onmessage = (ev: MessageEvent) => {
      this.lastHeard = Date.now();
      if (typeof ev.data !== "string") return;
      let m: ServerMessage;
      try {
        m = JSON.parse(ev.data) as ServerMessage;
      } catch {
        this.on.state("open", "the server sent a frame that is not JSON");
        return;
      }
      if (typeof m !== "object" || m === null || typeof m.type !== "string") return;
      if (m.type === "ping") {
        this.send({ type: "pong" });
        return;
      }
      if (m.type === "pong") return;
      this.on.message(m);
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      window.clearInterval(this.pingTimer);
      if (!this.stopped) this.scheduleRetry(ev.reason || `closed (${ev.code})`);
    };
    ws.onerror = () => {
      /* onclose follows and says the rest */
    };
  }

  private tick(): void {
    const silent = Date.now() - this.lastHeard;
    if (silent >= DEAD_AFTER_MS) {
      this.reconnect("no answer from the server for 45 s");
      return;
    }
    if (Date.now() - this.lastPing >= PING_EVERY_MS) {
      this.lastPing = Date.now();
      this.send({ type: "ping" });
    }
  }

  private scheduleRetry(why: string): void {
    if (this.stopped) return;
    window.clearTimeout(this.retryTimer);
    window.clearInterval(this.pingTimer);
    const delay = this.retryMs * (0.75 + Math.random() * 0.5);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.on.state(this.everOpen ? "reconnecting" : "connecting", why);
    this.retryTimer = window.setTimeout(() => this.connect(), delay);
  }
}
