// One WebSocket to the server's /ws, first on the page's own host: each text frame one JSON
// message of docs/PROTOCOL.md. Keeps the line alive (answers the server's pings, pings every 15 s
// itself, treats 45 s of silence as a dead line) and reconnects with back-off; the owner logs in
// again from onOpen. Everything runs on the page's one thread.
//
// On a cluster (docs/SCALING.md, "Clients") the page learns the other nodes from GET /nodes on
// its own node (the page's policy lets it fetch from there only), each time it connects; while
// that node is gone it keeps the list it has. When a connection drops or cannot be made,
// the next attempt goes to the next node of that list, so that a page whose node died comes back
// on another node and resumes with its token. A server of its own lists no others.
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
  return wsUrlOf(location.host);
}

// The WebSocket URL of a node at "host:port", over TLS when the page is.
export function wsUrlOf(address: string): string {
  return (location.protocol === "https:" ? "wss:" : "ws:") + "//" + address + "/ws";
}

// The most nodes a page keeps, and what a node's address may look like (host or [IPv6], port):
// the list comes from a server, so the page takes nothing else from it.
const MAX_NODES = 32;
const ADDRESS = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

export class Link {
  private ws: WebSocket | null = null;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: number | undefined;
  private pingTimer: number | undefined;
  private lastHeard = 0;
  private lastPing = 0;
  private stopped = false;
  private everOpen = false;
  // The page's own node first, then the others from GET /nodes; `at` is the one in use.
  private urls: string[];
  private at = 0;

  constructor(url: string, private readonly on: LinkHandlers) {
    this.urls = [url];
  }

  // The WebSocket URL this link uses now (or tries next).
  get current(): string {
    return this.urls[this.at % this.urls.length];
  }

  // Every node the link knows of, the page's own first.
  get nodes(): readonly string[] {
    return this.urls;
  }

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

  // Drops the current socket and reconnects to the same node (to sign in again, or for tests of
  // resuming).
  reconnect(why: string): void {
    this.drop();
    this.scheduleRetry(why);
  }

  private drop(): void {
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = ws.onmessage = ws.onerror = ws.onopen = null;
      ws.close();
    }
  }

  // The node in use failed us: the next attempt goes to the next node of the list.
  private failOver(why: string): void {
    this.at = (this.at + 1) % this.urls.length;
    this.scheduleRetry(why);
  }

  private learnNodes(): void {
    fetch("/nodes", { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null))
      .then((j: unknown) => {
        const list = j !== null && typeof j === "object" ? (j as { nodes?: unknown }).nodes : undefined;
        if (!Array.isArray(list)) return;
        const current = this.current;
        const urls = [this.urls[0]];
        for (const a of list.slice(0, MAX_NODES))
          if (typeof a === "string" && ADDRESS.test(a) && !urls.includes(wsUrlOf(a))) urls.push(wsUrlOf(a));
        if (!urls.includes(current)) urls.push(current);
        this.urls = urls;
        this.at = urls.indexOf(current);
      })
      .catch(() => {
        /* an older server, or the node went away again: keep the list we have */
      });
  }

  private connect(): void {
    this.on.state(this.everOpen ? "reconnecting" : "connecting", "");
    const url = this.current;
    let ws: WebSocket;
    try {
      ws = new WebSocket(url);
    } catch (e) {
      this.failOver(String(e));
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
      this.learnNodes();
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
      if (!this.stopped) this.failOver(ev.reason || `closed (${ev.code})`);
    };
    ws.onerror = () => {
      /* onclose follows and says the rest */
    };
  }

  private tick(): void {
    const silent = Date.now() - this.lastHeard;
    if (silent >= DEAD_AFTER_MS) {
      this.drop();
      this.failOver("no answer from the server for 45 s");
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
