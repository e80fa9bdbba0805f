import { redirect } from "react-router";

import { isSecureRequest } from "~/lib/cookies";
import { guestCartCookie } from "~/lib/guest-cart";
import { endAllSessions } from "~/services/auth.server";
import { clearSessionCookie, getOptionalUser } from "~/services/session.server";
import type { Route } from "./+types/logout";

// A POST, so a link or a prefetch can never log anyone out. It ends the session on the server (every token of this user,
// on every device: the issue asks that the old token answer 401 everywhere), clears the cookie and the visitor cart.
export async function action({ request, context }: Route.ActionArgs) {
  const user = await getOptionalUser(request, context);
  if (user) await endAllSessions(context.db, user.id);
  const headers = new Headers();
  headers.append("Set-Cookie", clearSessionCookie(request));
  headers.append("Set-Cookie", guestCartCookie([], isSecureRequest(request)));
  return redirect("/login", { headers });
}

export function loader() {
  return redirect("/");
}
