import { useEffect, useRef, type RefObject } from "react";

/**
 * Keeps the fields of an uncontrolled GET form (filters, a list's search) on the URL's values. The fields start from
 * them (which is also what the server renders); a new URL sets each field whose value it changed, and only those: a
 * price being typed keeps its text when a brand chosen just before is applied, while Clear or Back reset every field
 * they change. The form stays mounted meanwhile, so the focus stays where it was (remounting it, with a key, dropped the
 * focus to the page's body after every search).
 */
export function useFieldsFromUrl(form: RefObject<HTMLFormElement | null>, values: Record<string, string | number | undefined>): void {
  const shown = useRef<Record<string, string>>({});
  const current = Object.entries(values).map(([name, value]) => [name, value === undefined ? "" : String(value)] as const);
  const key = JSON.stringify(current);
  useEffect(() => {
    const fields = form.current?.elements;
    if (!fields) return;
    for (const [name, text] of current) {
      const field = fields.namedItem(name);
      if (shown.current[name] !== undefined && shown.current[name] !== text && (field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) field.value = text;
      shown.current[name] = text;
    }
    // `key` stands for the values: a new object every render, the same values most of the time.
  }, [form, key]);
}
