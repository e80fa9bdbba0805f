import { redirect } from "react-router";

import { isSecureRequest } from "~/lib/cookies";
import { guestCartCookie } from "~/lib/guest-cart";
import { CLEAR_BROWSER_CACHE, clearSessionCookie, endCurrentSession, forgetEndedSession } from "~/services/session.server";
import type { Route } from "./+types/logout";

// A POST, so a link or a prefetch can never log anyone out. It ends this device's session on the server (its token
// answers 401 everywhere from then on; the user's other devices stay logged in), clears the cookie and the visitor cart.
export async function action({ request, context }: Route.ActionArgs) {
  await endCurrentSession(request, context);
  const headers = new Headers();
  headers.append("Set-Cookie", clearSessionCookie(request));
  // Logged out on purpose: the next login page has no "Session expired" to say.
  const forget = forgetEndedSession(request);
  if (forget) headers.append("Set-Cookie", forget);
  headers.append("Set-Cookie", guestCartCookie([], isSecureRequest(request)));
  headers.set(CLEAR_BROWSER_CACHE.name, CLEAR_BROWSER_CACHE.value);
  return redirect("/login", { headers });
}

export function loader() {
  return redirect("/");
}
