import { useLocation, useSearchParams } from "react-router";

import { CART_MERGED_MESSAGE, CART_MERGED_PARAM, WELCOME_PARAM, welcomeMessage } from "~/lib/one-time-params";
import { Toast, VIEW_CART } from "./Toast";

/**
 * What a login or a registration did, said once on whichever page it lands on (startSession's one-time parameters):
 * the welcome of a new account, or the visit's items put into the saved cart. Only to someone logged in: the address
 * alone, shared or bookmarked, says nothing. Rendered always, by the root: its live region must be in the page before
 * a message goes into it (Toast.tsx); being in every page, it is not a role=status (a page's own status stays its one).
 */
export function SignedInToast({ user }: { user: { name: string } | null }) {
  const [searchParams] = useSearchParams();
  const onCart = useLocation().pathname === "/cart";
  const welcome = user && searchParams.has(WELCOME_PARAM) ? welcomeMessage(user.name) : null;
  const merged = user !== null && !welcome && searchParams.has(CART_MERGED_PARAM);
  return <Toast message={welcome ?? (merged ? CART_MERGED_MESSAGE : null)} link={merged && !onCart ? VIEW_CART : undefined} asStatus={false} />;
}
