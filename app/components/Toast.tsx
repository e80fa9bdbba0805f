import { useEffect, useState } from "react";
import { useLocation } from "react-router";

import { withoutOneTimeParams } from "~/lib/one-time-params";
import { AppLink } from "./AppLink";

export const TOAST_MS = 5000;

/** What a shopper who just added something most often wants next, offered in the toast that says it was added. */
export const VIEW_CART = { to: "/cart", label: "View cart" } as const;

/**
 * A message that hides itself after 5000 ms (SPEC §9); `id` changes to show the same text again. The live region is
 * always in the page, empty while there is nothing to say, and the message is put into it: a region inserted together
 * with its text goes unannounced by many screen readers. So a screen that may show a toast renders <Toast> always,
 * with message null when there is none. `link` is where to go next, shown beside the message. `asStatus: false` keeps
 * the region a polite live region without the status role: for a toast in every page (the root's), so that a page's own
 * status message stays the one status it has. `lasting` keeps a message that must not be missed until it is closed (it
 * is not gone before it could be read: WCAG 2.2.1).
 */
export function Toast({
  message,
  tone = "success",
  id,
  link,
  asStatus = true,
  lasting = false,
}: {
  message: string | null;
  tone?: "success" | "error";
  id?: unknown;
  link?: { to: string; label: string };
  asStatus?: boolean;
  lasting?: boolean;
}) {
  const [visible, setVisible] = useState(Boolean(message));
  // Counts the times shown: each is a new element in the live region, so the same words again (a second add) are read
  // again.
  const [shows, setShows] = useState(0);
  // While the pointer is on it or the focus in it (a keyboard user on its link), it stays: hiding then would drop the
  // focus on <body>, and five seconds are short to reach a link by Tab.
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (!message) return;
    setVisible(true);
    setShows((count) => count + 1);
    // A toast closed with its focus in it gets no blur: a new one starts unheld.
    setHeld(false);
  }, [message, id]);
  useEffect(() => {
    if (!message || !visible || held || lasting) return;
    const timer = setTimeout(() => setVisible(false), TOAST_MS);
    return () => clearTimeout(timer);
  }, [message, id, visible, held, lasting]);
  const shown = Boolean(message) && visible;
  // Without JavaScript a toast never hides itself, and one that came back in the address (a one-time parameter: an
  // add, a login) is closed by loading the page without it. With JavaScript, Close only hides it.
  const location = useLocation();
  const closeHref = withoutOneTimeParams(location.pathname + location.search);
  const styles =
    tone === "success"
      ? "bg-slate-900 text-white dark:bg-white dark:text-slate-900"
      : "bg-red-600 text-white dark:bg-red-500 dark:text-slate-950";
  // Only the message is the live region: the link and Close beside it are not part of what is read out.
  return (
    <div
      className={shown ? `fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-sm items-center justify-between gap-3 rounded-xl px-4 py-1.5 text-sm font-medium shadow-xl sm:left-auto sm:right-6 ${styles}` : "sr-only"}
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setHeld(false);
      }}
    >
      <span role={asStatus ? "status" : undefined} aria-live="polite">
        <span key={shows}>{shown ? message : ""}</span>
      </span>
      {shown && link && (
        <AppLink to={link.to} className="ml-auto inline-flex min-h-11 shrink-0 items-center whitespace-nowrap rounded px-3 text-xs font-semibold uppercase tracking-wide underline underline-offset-2">
          {link.label}
        </AppLink>
      )}
      {shown && (
        // In the toast's own colour at full strength: dimmed, it fell under 4.5:1 on the error toast's red.
        <a
          href={closeHref}
          onClick={(event) => {
            event.preventDefault();
            setVisible(false);
            setHeld(false);
          }}
          className="-mr-1 inline-flex min-h-11 shrink-0 items-center whitespace-nowrap rounded px-3 text-xs font-semibold uppercase tracking-wide hover:underline hover:underline-offset-2"
        >
          Close
        </a>
      )}
    </div>
  );
}
