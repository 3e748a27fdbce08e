// The sign-in kept in the browser: the name and the server's resume token (docs/PROTOCOL.md,
// hello), so that a reload or a new tab is signed in again without the password.
const SESSION_KEY = "amazons.session";

export interface Session {
  name: string;
  token: string;
}

export function loadSession(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(SESSION_KEY) ?? "null") as Session | null;
    return s && typeof s.name === "string" && typeof s.token === "string" ? s : null;
  } catch {
    return null;
  }
}

export function saveSession(s: Session): void {
  localStorage.setItem(SESSION_KEY, JSON.stringify(s));
}

export function forgetSession(): void {
  localStorage.removeItem(SESSION_KEY);
}
