// Browser notifications: your move and challenges, told while this tab is hidden. Off until the
// person switches them on in the settings, which is when the browser asks for permission (once;
// a refusal switches them off again). Nothing is shown while the tab is in view: the page's own
// sounds, title and notices do that.
// Shows a notification when the setting is on (settings.ts applies it as <html data-notify>),
// the tab is hidden and the browser allows it; true when one was shown. Notifications of one
// `tag` replace each other.
export function notifyWhenHidden(title: string, body: string, tag: string): boolean {
  if (document.documentElement.dataset.notify !== "on" || !document.hidden) return false;
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return false;
  try {
    const n = new Notification(title, { body, tag });
    n.onclick = () => {
      window.focus();
      n.close();
    };
    const shown = document.body.dataset.notified ?? "";
    document.body.dataset.notified = `${shown}${shown ? "|" : ""}${tag}`; // for tests, as data-sound-kinds
    return true;
  } catch {
    return false; // some browsers allow notifications only from a service worker
  }
}

// Asks the browser for permission; resolves to whether notifications may be shown.
export async function askPermission(): Promise<boolean> {
  if (typeof Notification === "undefined") return false;
  if (Notification.permission === "granted") return true;
  if (Notification.permission === "denied") return false;
  try {
    return (await Notification.requestPermission()) === "granted";
  } catch {
    return false;
  }
}
