import { data, redirect } from "react-router";

import { readFormData } from "~/lib/forms";

import { isSecureRequest } from "~/lib/cookies";
import { isTheme } from "~/lib/constants";
import { themeCookie } from "~/lib/theme.server";
import { safeRedirectPath } from "~/services/session.server";
import type { Route } from "./+types/theme";

export async function action({ request }: Route.ActionArgs) {
  const form = await readFormData(request);
  const theme = form.get("theme");
  if (!isTheme(theme)) throw data({ message: "Unknown theme" }, { status: 400 });
  const headers = { "Set-Cookie": themeCookie(theme, isSecureRequest(request)) };
  // A plain form post (no JavaScript) names the page to go back to; the toggle's fetcher only needs the cookie.
  return form.has("redirectTo") ? redirect(safeRedirectPath(form.get("redirectTo")), { headers }) : data({ theme }, { headers });
}

export function loader() {
  return redirect("/");
}
