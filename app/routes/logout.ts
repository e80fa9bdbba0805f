import { redirect } from "react-router";

import { isSecureRequest } from "~/lib/cookies";
import { guestCartCookie } from "~/lib/guest-cart";
import { clearSessionCookie } from "~/services/session.server";
import type { Route } from "./+types/logout";

// A POST, so a link or a prefetch can never log anyone out. It ends the session and empties the visitor cart.
export function action({ request }: Route.ActionArgs) {
  const headers = new Headers();
  headers.append("Set-Cookie", clearSessionCookie(request));
  headers.append("Set-Cookie", guestCartCookie([], isSecureRequest(request)));
  return redirect("/login", { headers });
}

export function loader() {
  return redirect("/");
}
