import { useEffect } from "react";
import { useLocation } from "react-router";

// What each entry of this tab's history shows (path and query), by React Router's index of it (history.state.idx), as
// far as this document has seen them: a dialog opened from its page closes by going back to that entry rather than by
// replacing itself with a copy of it, which left two copies of the page behind it and a Back that seemed to do nothing.
const entries = new Map<number, string>();

function currentIndex(): number | null {
  const idx = (window.history.state as { idx?: unknown } | null)?.idx;
  return typeof idx === "number" ? idx : null;
}

/** Records the entry shown now; the root renders it once. */
export function useHistoryEntries() {
  const { pathname, search, key } = useLocation();
  useEffect(() => {
    const index = currentIndex();
    if (index !== null) entries.set(index, pathname + search);
  }, [pathname, search, key]);
}

/** Whether the entry before this one shows `href`, so going back reaches it. */
export function previousEntryIs(href: string): boolean {
  const index = currentIndex();
  return index !== null && index > 0 && entries.get(index - 1) === href;
}
