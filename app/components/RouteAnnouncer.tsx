import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";

/**
 * Gives the page's heading the focus (made focusable for it), so that the focus is not dropped on <body> and a screen
 * reader goes on from the top of the page. False when the page has no heading.
 */
export function focusPageHeading(): boolean {
  const landing = document.querySelector<HTMLElement>("main h1") ?? document.querySelector<HTMLElement>("h1, main");
  if (!landing) return false;
  if (!landing.hasAttribute("tabindex")) landing.tabIndex = -1;
  landing.focus({ preventScroll: true });
  return true;
}

/**
 * A move to another page inside the app is silent for a screen reader, and the focus is usually dropped on <body> (the
 * link that had it is gone with the page it was on). So, once the new page shows (its title changed): where the focus
 * was dropped, the page's heading takes it and is read; where it was kept (a link of the bar, the search box), the
 * page's title is said in a polite live region. The first load is the browser's own, and a change that keeps the title
 * (the sort, a page of a list, a dialog) is left to the page, which knows where the focus belongs.
 */
export function RouteAnnouncer() {
  const { key } = useLocation();
  // Each announcement a new element: the same title said again (home, a product, home) must change the region.
  const [said, setSaid] = useState({ title: "", count: 0 });
  const titleShown = useRef<string | null>(null);
  useEffect(() => {
    const title = document.title;
    const moved = titleShown.current !== null && title !== titleShown.current;
    titleShown.current = title;
    if (!moved) return;
    // Looked at once the new page has settled: what had the focus may go in its own effect (the search's suggestions
    // close after the navigation that a click on one of them made).
    const settled = setTimeout(() => {
      const dropped = document.activeElement === null || document.activeElement === document.body;
      if (!(dropped && focusPageHeading())) setSaid((last) => ({ title, count: last.count + 1 }));
    }, 50);
    return () => clearTimeout(settled);
  }, [key]);
  return (
    <p aria-live="polite" className="sr-only" data-testid="route-announcer">
      <span key={said.count}>{said.title}</span>
    </p>
  );
}
