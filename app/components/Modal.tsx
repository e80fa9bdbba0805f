import { useEffect, useId, useRef, type ReactNode } from "react";
import { Link, useNavigate, type LinkProps } from "react-router";

import { previousEntryIs } from "./historyEntries";
import { CloseIcon } from "./icons";
import { focusPageHeading } from "./RouteAnnouncer";

const FOCUSABLE = "a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex='-1'])";

const SIZES = { md: "max-w-lg", lg: "max-w-2xl", xl: "max-w-4xl" } as const;

/**
 * Keeps Tab and Shift+Tab inside the dialog, closes it on Escape, locks the page's scroll, and gives the focus back to
 * whatever had it (the button that opened the dialog) when it goes, or to the page's <h1> when nothing did. The first
 * `[data-autofocus]` element gets the focus on opening, else the dialog itself, so a screen reader starts at its title.
 */
function useDialogBehaviour(ref: React.RefObject<HTMLElement | null>, onEscape: () => void) {
  const escape = useRef(onEscape);
  escape.current = onEscape;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const returnTo = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    // The dialog itself takes the focus where it is: focusing a dialog taller than the screen scrolled the overlay to
    // its top edge, past the overlay's padding (at 768 and 844 px the checkout opened touching the screen's top).
    const autofocus = dialog.querySelector<HTMLElement>("[data-autofocus]");
    if (autofocus) autofocus.focus();
    else dialog.focus({ preventScroll: true });
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        return escape.current();
      }
      if (event.key !== "Tab") return;
      const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.offsetParent !== null || element === document.activeElement);
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return event.preventDefault();
      const active = document.activeElement;
      if (event.shiftKey && (active === first || active === dialog || !dialog.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.style.overflow = overflow;
      if (returnTo?.isConnected) return returnTo.focus();
      // Opened with the page (a URL with the dialog's parameter), there is no opener: the page's heading takes the
      // focus, so it is not dropped on <body> and a screen reader goes on from the top of the page.
      focusPageHeading();
    };
  }, [ref]);
}

/**
 * Closing a dialog opened from its page goes back to that page's entry; a dialog opened by its URL (a link from
 * elsewhere, a reload) replaces itself with the page, so Back never reopens what was closed.
 */
function useCloseDialog(closeTo: string) {
  const navigate = useNavigate();
  return () => (previousEntryIs(closeTo) ? navigate(-1) : navigate(closeTo, { replace: true, preventScrollReset: true }));
}

/** A link that closes the dialog as useCloseDialog does; without JavaScript (or opened in a new tab) it is a plain link to `to`. */
export function DialogCloseLink({ to, ...props }: Omit<LinkProps, "to" | "replace" | "preventScrollReset" | "onClick"> & { to: string }) {
  const close = useCloseDialog(to);
  return (
    <Link
      to={to}
      replace
      preventScrollReset
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        close();
      }}
      {...props}
    />
  );
}

export interface ModalProps {
  /** The dialog's title; it labels the dialog (aria-labelledby). */
  title: ReactNode;
  /** Where closing goes: the close button is a Link there (so it works without JavaScript); Escape and a click on the backdrop go there too. */
  closeTo: string;
  closeLabel?: string;
  /** A line under the title; it describes the dialog (aria-describedby). */
  description?: ReactNode;
  size?: keyof typeof SIZES;
  children: ReactNode;
  testId?: string;
}

/**
 * A modal dialog opened by the URL (a search parameter the page's loader reads), so it is rendered on the server and
 * works without JavaScript; with JavaScript it traps the focus and closes on Escape.
 */
export function Modal({ title, closeTo, closeLabel = "Close", description, size = "lg", children, testId }: ModalProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const close = useCloseDialog(closeTo);
  useDialogBehaviour(dialog, close);
  return (
    <div
      className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-slate-950/60 p-0 backdrop-blur-[2px] sm:p-8"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        data-testid={testId}
        // On a phone the dialog sits at the bottom (mt-auto) while it fits; a taller one starts at the top, where the
        // overlay scrolls from (align-items: end would push its top out of reach, above the scrollable area).
        className={`card relative mt-auto w-full ${SIZES[size]} rounded-b-none p-5 shadow-2xl outline-none sm:mt-0 sm:rounded-b-2xl sm:p-7`}
      >
        <DialogCloseLink
          to={closeTo}
          aria-label={closeLabel}
          className="absolute right-2 top-2 inline-flex size-11 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100 sm:right-3 sm:top-3"
        >
          <CloseIcon className="size-5" />
        </DialogCloseLink>
        <h2 id={titleId} className="pr-12 text-xl font-bold tracking-tight">
          {title}
        </h2>
        {description && (
          <p id={descriptionId} className="mt-1 pr-12 text-sm text-slate-600 dark:text-slate-400">
            {description}
          </p>
        )}
        <div className="mt-5">{children}</div>
      </div>
    </div>
  );
}
