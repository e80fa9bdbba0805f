import { useEffect, type AnchorHTMLAttributes } from "react";
import { useNavigate } from "react-router";

/** What marks an AppLink in the page; `appLinkOf` finds one from an event's target. */
const APP_LINK = "a[data-app-link]";

export const appLinkOf = (target: EventTarget | null): HTMLAnchorElement | null => (target instanceof Element ? target.closest<HTMLAnchorElement>(APP_LINK) : null);

/**
 * A link to a page of the shop where a screen renders many on every request: the bar, the pagination, the cards of a
 * grid. A <Link> runs a dozen hooks to render, and those links were the largest part of rendering a grid page on the
 * server; this is a plain <a>, and `useAppLinkNavigation` (in the root) does for all of them at once what a <Link>
 * does for one: a plain click navigates in the app. `data-discover` lets React Router learn the route ahead of the
 * click, as it does for its own links. `to` is a path of the shop, or a query on the current page ("?page=2").
 * `keepScroll` is <Link preventScrollReset>: the page stays where it was (a filter, a dialog opened from a list).
 * Elsewhere, use <Link>.
 */
export function AppLink({ to, keepScroll, ...props }: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string; keepScroll?: boolean }) {
  return <a href={to} data-app-link="" data-discover="true" data-keep-scroll={keepScroll ? "" : undefined} {...props} />;
}

/**
 * Navigates in the app on a plain click of any AppLink. Modified and middle clicks, other targets and downloads keep
 * the browser's own behaviour (a new tab, a download), as React Router's links do.
 */
export function useAppLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = appLinkOf(event.target);
      if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      if ((link.target && link.target !== "_self") || link.hasAttribute("download") || link.origin !== window.location.origin) return;
      event.preventDefault();
      const target = link.pathname + link.search + link.hash;
      // As <Link>: a link to the page already shown replaces its history entry rather than adding a second one.
      const current = window.location.pathname + window.location.search + window.location.hash;
      navigate(target, { replace: target === current, preventScrollReset: link.hasAttribute("data-keep-scroll") });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}
