import { useRef, type FocusEvent, type FormEvent, type KeyboardEvent, type PointerEvent } from "react";

/**
 * The handlers of a GET form whose selects apply at once (the grid's sort, size and brand), for its <form>: a choice
 * made with the pointer (the mouse, or a tap on a phone's picker) applies at once, as before; one made with the keyboard
 * (ArrowDown on a focused select changes its value on Windows and Linux) waits until the shopper commits it, with Enter
 * or by leaving the select, so looking through the options does not navigate at every key (WCAG 3.2.2, On Input).
 * A pick from the select's opened list (macOS opens it on the arrows; elsewhere Space or Alt+Down) applies at once:
 * the list's own Enter or click commits it, and that Enter never reaches the page.
 * `apply` submits the form. Without JavaScript none of this runs: the form's own button submits it.
 */
export function useSelectCommit(apply: (form: HTMLFormElement) => void) {
  // Whether a change now comes from a key pressed on the closed select: true from the keydown until the browser has
  // handled it (a closed select changes its value as the key's own default action, in the same task).
  const byKeyboard = useRef(false);
  // The select changed by the keyboard and not applied yet.
  const pending = useRef<HTMLSelectElement | null>(null);
  const commit = (form: HTMLFormElement) => {
    pending.current = null;
    apply(form);
  };
  return {
    onPointerDown: (event: PointerEvent<HTMLFormElement>) => {
      if (event.target instanceof HTMLSelectElement) byKeyboard.current = false;
    },
    onKeyDown: (event: KeyboardEvent<HTMLFormElement>) => {
      if (!(event.target instanceof HTMLSelectElement) || ["Tab", "Shift", "Control", "Alt", "Meta"].includes(event.key)) return;
      if (event.key === "Enter") {
        // Enter in a select does not submit a form by itself.
        event.preventDefault();
        if (pending.current) commit(event.currentTarget);
        return;
      }
      byKeyboard.current = true;
      // Past this key's own handling, a change is a pick from the opened list (see above).
      setTimeout(() => (byKeyboard.current = false), 0);
    },
    onChange: (event: FormEvent<HTMLFormElement>) => {
      if (!(event.target instanceof HTMLSelectElement)) return;
      if (byKeyboard.current) pending.current = event.target;
      else commit(event.currentTarget);
    },
    onBlur: (event: FocusEvent<HTMLFormElement>) => {
      if (pending.current && (event.target as EventTarget) === pending.current) commit(event.currentTarget);
    },
    /** For the form's own submit (a price and Enter, or its button): what was pending goes along. */
    clearPending: () => {
      pending.current = null;
    },
  };
}
