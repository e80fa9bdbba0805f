import { RENDERED_FOR_FIELD } from "./rendered-for";

// A long form (a product's, the profile, a review, the checkout's contact fields) whose submit was refused because the
// session had ended, the server sending the browser to the login page, keeps what was typed in this tab's
// sessionStorage. The form gives it back once, when it loads again after that login for the same user it was
// rendered for, and forgets it. Passwords are never kept; files cannot be (no page can put a file into a file input),
// so the form says so beside them.

const PREFIX = "stride:kept-form:";

/** Kept this long at most: the login follows at once, or soon after (a password reset by e-mail). */
const KEPT_MS = 60 * 60 * 1000;

/** Never kept: passwords, and whom the form was rendered for (the page says it again). */
const NEVER_KEPT = /password/i;

interface Stored {
  user: string;
  at: number;
  entries: [string, string][];
}

/** An entry of what takeKeptForm gives back: the name of a file field that had a file chosen (not kept). */
export const CHOSEN_FILE = ":chosen-file";

/** Keeps the text fields of a form rendered for a signed-in user (its RENDERED_FOR_FIELD) under `key`. */
export function keepForm(key: string, form: FormData): void {
  const user = form.get(RENDERED_FOR_FIELD);
  if (typeof user !== "string") return;
  const entries: [string, string][] = [];
  for (const [name, value] of form) {
    if (typeof value !== "string") {
      if (value.size > 0) entries.push([CHOSEN_FILE, name]);
    } else if (name !== RENDERED_FOR_FIELD && !NEVER_KEPT.test(name)) entries.push([name, value]);
  }
  try {
    sessionStorage.setItem(PREFIX + key, JSON.stringify({ user, at: Date.now(), entries } satisfies Stored));
  } catch {
    // Storage refused (full, or turned off): the form is typed again, as before.
  }
}

/**
 * What was kept under `key`, once: it is forgotten as it is read, and given only to the user the form was rendered
 * for (never to another account that logged in meanwhile), within KEPT_MS.
 */
export function takeKeptForm(key: string, userId: number | null): URLSearchParams | null {
  let stored: Stored;
  try {
    const text = sessionStorage.getItem(PREFIX + key);
    if (text === null) return null;
    sessionStorage.removeItem(PREFIX + key);
    stored = JSON.parse(text) as Stored;
  } catch {
    return null;
  }
  if (userId === null || stored.user !== String(userId) || !(Date.now() - stored.at < KEPT_MS) || !Array.isArray(stored.entries)) return null;
  return new URLSearchParams(stored.entries);
}

/** Whether a route's server action answered by sending the browser to the login page (a session that ended). */
function sentToLogin(error: unknown): boolean {
  return error instanceof Response && error.status >= 300 && error.status < 400 && (error.headers.get("Location") ?? "").startsWith("/login");
}

/**
 * A route's clientAction around its server action: when the answer is the login page, the form is kept under `key`
 * before the browser goes there. The body is copied first (the server action sends the request itself) and read only
 * then.
 */
export async function keepWhenSentToLogin<T>(request: Request, key: string, serverAction: () => Promise<T>): Promise<T> {
  const copy = request.clone();
  try {
    return await serverAction();
  } catch (error) {
    if (sentToLogin(error)) keepForm(key, await copy.formData().catch(() => new FormData()));
    throw error;
  }
}
