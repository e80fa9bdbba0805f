import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * A <details> menu (it opens without JavaScript) that, with it, closes after a navigation, on Escape, on a click
 * elsewhere, and when the focus leaves it (Tab or Shift+Tab past its last or first item): an open menu must not cover
 * what gets the focus next (WCAG 2.4.11). Escape gives the focus back to the toggle (the <summary>).
 */
export function useMenu() {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  useEffect(() => {
    const menu = ref.current;
    if (!menu?.open) return;
    // A link of the menu was followed: the focus would stay on it, hidden in the closed menu; the toggle takes it.
    const hadFocus = menu.contains(document.activeElement);
    menu.removeAttribute("open");
    if (hadFocus) menu.querySelector("summary")?.focus();
  }, [location.key]);
  useEffect(() => {
    const menu = ref.current;
    const onPointer = (event: MouseEvent) => {
      if (menu?.open && !menu.contains(event.target as Node)) menu.open = false;
    };
    const onKey = (event: KeyboardEvent) => {
      // A menu inside another (the phone menu's Categories) handles Escape first (a child's effect runs first, so its
      // listener comes first) and marks the event: one Escape closes the innermost menu only.
      if (event.key !== "Escape" || !menu?.open || event.defaultPrevented) return;
      const focus = document.activeElement;
      if (focus && focus !== document.body && !menu.contains(focus)) return;
      event.preventDefault();
      menu.open = false;
      menu.querySelector("summary")?.focus();
    };
    // Only a focus that lands outside closes it: moving between its items does not, nor a focusout with no next
    // element (a click on a menu link in Safari, which does not focus links; the pointer handler covers clicks).
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget;
      if (menu?.open && next instanceof Node && !menu.contains(next)) menu.open = false;
    };
    document.addEventListener("mousedown", onPointer);
    document.addEventListener("keydown", onKey);
    menu?.addEventListener("focusout", onFocusOut);
    return () => {
      document.removeEventListener("mousedown", onPointer);
      document.removeEventListener("keydown", onKey);
      menu?.removeEventListener("focusout", onFocusOut);
    };
  }, []);
  return ref;
}
