import { useState } from "react";
import { useRouteLoaderData } from "react-router";

import { RENDERED_FOR_FIELD } from "~/lib/rendered-for";
import type { loader as rootLoader } from "~/root";

/**
 * The id of the signed-in user this form was rendered for, or null for a visitor (app/lib/rendered-for.ts says why).
 * Read once, when the form first renders, and kept: the page's data is read again after every action (another tab's
 * login shows up then), while what was typed into the form stays the first user's, and must still be refused.
 */
export function useRenderedFor(): number | null {
  const user = useRouteLoaderData<typeof rootLoader>("root")?.user;
  const [renderedFor] = useState(user?.id ?? null);
  return renderedFor;
}

/**
 * The hidden field a screen form carries when it was rendered for a signed-in user. Nothing for a visitor: the only
 * writes a visitor's page makes are to the cart, and those land, after a login elsewhere, in the cart that the
 * visitor's lines joined at that login (as they always did).
 */
export function RenderedFor() {
  const renderedFor = useRenderedFor();
  return renderedFor === null ? null : <input type="hidden" name={RENDERED_FOR_FIELD} value={renderedFor} />;
}

/** For a form sent by script (fetcher.submit with an object): its values with the same field. */
export function withRenderedFor<T extends Record<string, string>>(values: T, renderedFor: number | null): T | (T & { [RENDERED_FOR_FIELD]: string }) {
  return renderedFor === null ? values : { ...values, [RENDERED_FOR_FIELD]: String(renderedFor) };
}
