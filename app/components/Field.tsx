import { useEffect, useRef, useState, type DOMAttributes, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";

import { EyeIcon, EyeOffIcon } from "./icons";

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  name: string;
  label: string;
  errors?: string[];
  hint?: ReactNode;
  /**
   * The error is read out when it comes, not only with the field: for an error the page finds while the focus stays on
   * the field (a bank slip judged once chosen). Its line is then a live region that is always there, empty until there
   * is something to say (Toast.tsx says why).
   */
  liveError?: boolean;
  /** A textarea of this many rows in place of the input: text of a few lines (a shipping address). */
  rows?: number;
}

/**
 * The errors a field still shows: the server's, until the shopper changes the field (the next answer brings its own,
 * a new list, which shows again). `handleInput` goes on the field (an input, a textarea or a select).
 */
export function useErrorsUntilEdited<E = HTMLInputElement>(errors: string[] | undefined, onInput?: DOMAttributes<E>["onInput"]) {
  const [editedAfter, setEditedAfter] = useState<string[] | undefined>();
  const shown = errors?.length && editedAfter !== errors ? errors : undefined;
  const handleInput: DOMAttributes<E>["onInput"] = (event) => {
    setEditedAfter(errors);
    onInput?.(event);
  };
  return { shown, handleInput };
}

/**
 * The ref for a form whose refusal (an action's answer with errors, each a new object) moves the focus to the first
 * field at fault, else to the form's alert: otherwise it stays on the submit button, or falls to the page's top when
 * the form is drawn again, and a keyboard or screen reader user has to look for what went wrong.
 */
export function useFocusOnRefusal(refusal: object | null | undefined) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!refusal) return;
    (form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form.current?.querySelector<HTMLElement>('[role="alert"]'))?.focus();
  }, [refusal]);
  return form;
}

/** A labelled input with its errors announced and tied to it (aria-describedby). */
export function Field({ name, label, errors: serverErrors, hint, liveError = false, id = name, className, onInput, rows, ...input }: FieldProps) {
  const { shown: errors, handleInput } = useErrorsUntilEdited(serverErrors, onInput);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [errors?.length ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  const control = { id, name, className: "field-input", "aria-invalid": errors?.length ? true : undefined, "aria-describedby": describedBy };
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {rows ? (
        <textarea
          {...control}
          rows={rows}
          // Its props are typed as an input's (FieldProps), and forwarded as they are: the same DOM events.
          onInput={handleInput as unknown as DOMAttributes<HTMLTextAreaElement>["onInput"]}
          {...(input as TextareaHTMLAttributes<HTMLTextAreaElement>)}
        />
      ) : (
        <input {...control} onInput={handleInput} {...input} />
      )}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {errors?.length || liveError ? (
        <p id={errorId} className={errors?.length ? "field-error" : undefined} aria-live={liveError ? "polite" : undefined}>
          {errors?.[0]}
        </p>
      ) : null}
    </div>
  );
}

/** A password input with a show/hide button. */
export function PasswordField({ name, label, errors: serverErrors, id = name, className, onInput, ...input }: Omit<FieldProps, "type">) {
  const [visible, setVisible] = useState(false);
  const { shown: errors, handleInput } = useErrorsUntilEdited(serverErrors, onInput);
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          name={name}
          type={visible ? "text" : "password"}
          className="field-input pr-12"
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? errorId : undefined}
          onInput={handleInput}
          {...input}
        />
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 inline-flex w-11 items-center justify-center rounded-r-lg text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-100"
        >
          {visible ? <EyeOffIcon className="size-5" /> : <EyeIcon className="size-5" />}
        </button>
      </div>
      {errors?.length ? (
        <p id={errorId} className="field-error">
          {errors[0]}
        </p>
      ) : null}
    </div>
  );
}

const ALERT_BOX = "rounded-lg border px-4 py-3 text-sm outline-none";
const ERROR_TONE = "border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200";
const SUCCESS_TONE = "border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-200";
const WARNING_TONE = "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100";
const TONES = { error: ERROR_TONE, success: SUCCESS_TONE, warning: WARNING_TONE } as const;

/** tone "warning": done, with something the user must know (a cancellation that could not put all its stock back). */
export function FormAlert({ tone = "error", children }: { tone?: "error" | "success" | "warning"; children: ReactNode }) {
  return (
    // An error can take the focus (useFocusOnRefusal), so it is read out where the user is.
    <div role={tone === "error" ? "alert" : "status"} tabIndex={tone === "error" ? -1 : undefined} className={`${ALERT_BOX} ${TONES[tone]}`}>
      {children}
    </div>
  );
}

/**
 * A form's success message that comes without a page load (the profile's save), looking like FormAlert's. Its live
 * region is always in the page, empty while there is nothing to say, and the message is put into it: a role=status
 * inserted together with its text goes unannounced by many screen readers (Toast.tsx). So render it always, with
 * message null when there is none, and null again while the form is sent, so that the same words say it once more.
 */
export function FormStatus({ message }: { message: string | null }) {
  return (
    <div role="status" className={message ? `${ALERT_BOX} ${SUCCESS_TONE}` : "sr-only"}>
      {message}
    </div>
  );
}

/** The back office lists' note on the URL's parameters they set aside (readOrderListSearch, readUserListSearch). */
export function IgnoredFilters({ dropped }: { dropped: string[] }) {
  if (!dropped.length) return null;
  return (
    <div className="mt-3">
      <FormAlert>{`Some of the filters were ignored: ${dropped.join("; ")}.`}</FormAlert>
    </div>
  );
}
