import { data, redirect } from "react-router";

import { readFormData, readSizeId } from "~/lib/forms";

import { ADDED_TO_CART } from "~/lib/availability";
import { answerOr } from "~/lib/client-action";
import { HttpError, parseId } from "~/lib/http";
import { sizePickerId } from "~/lib/sizes";
import { addToGuestCart, addToServerCart } from "~/services/cart.server";
import { formUser, guestCartOf, safeRedirectPath, writeGuestCart } from "~/services/session.server";
import type { Route } from "./+types/cart.add";

// A cart the shop could not reach is left as it was, without a word (SPEC §8: failed cart calls fall back silently).
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => answerOr(serverAction, () => ({ ok: false as const, message: null }));

// One unit of a product into the cart: the customer's server cart, or the visitor's cookie cart.
export async function action({ request, context, url }: Route.ActionArgs) {
  const form = await readFormData(request);
  const productId = parseId(form.get("productId"));
  const redirectTo = form.get("redirectTo");
  const headers = new Headers();
  try {
    if (productId === null) throw new HttpError(404, "Product not found");
    const sizeId = readSizeId(form);
    // Into the cart of the customer the page was rendered for, never another's (409), nor a visitor's once that
    // customer's session ended (the login page); a visitor's page carries nothing to check (RenderedFor says why).
    const user = await formUser(request, context, new URL(safeRedirectPath(redirectTo), url), form);
    if (user) {
      await addToServerCart(context.db, user.id, productId, sizeId);
    } else {
      const lines = await addToGuestCart(context.db, guestCartOf(request, context), productId, sizeId);
      headers.append("Set-Cookie", writeGuestCart(request, context, lines));
    }
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    if (typeof redirectTo === "string") {
      const back = withParam(safeRedirectPath(redirectTo), "cartError", error.message);
      // A refusal of the size comes from a product page's size picker (a grid offers no add of a product with a
      // choice of sizes): the page opens at the picker, which says it under the sizes.
      return redirect(productId !== null && error.fieldErrors?.sizeId ? `${back}#${sizePickerId(productId)}` : back);
    }
    return data({ ok: false, message: error.message }, { status: error.status });
  }
  // A plain form (no JavaScript) goes back to its page, which shows the toast; the fetcher stays put.
  if (typeof redirectTo === "string") return redirect(withParam(safeRedirectPath(redirectTo), "added", String(productId)), { headers });
  return data({ ok: true, message: ADDED_TO_CART }, { headers });
}

/** The page to go back to, with this add's outcome and without an earlier one's (a refusal, then a success). */
function withParam(path: string, key: "added" | "cartError", value: string): string {
  const url = new URL(path, "http://local");
  url.searchParams.delete("added");
  url.searchParams.delete("cartError");
  url.searchParams.set(key, value);
  return url.pathname + url.search;
}

export function loader() {
  return redirect("/cart");
}
