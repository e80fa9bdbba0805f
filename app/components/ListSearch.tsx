import { useRef } from "react";
import { Form, Link } from "react-router";

import { ADMIN_SEARCH_MAX } from "~/lib/constants";
import { useFieldsFromUrl } from "./useFieldsFromUrl";

/**
 * The back office's search box for a list (users, low-stock sizes): a GET form, so the search lives in the URL and works
 * without JavaScript. A search starts on the list's first page (the form sends no page); `keep` are the list's other
 * filters, sent along; Clear, shown while there is a search, goes to `clearTo` (the list with those filters, no q).
 */
export function ListSearch({
  action,
  id,
  label,
  placeholder,
  q,
  keep = {},
  clearTo,
}: {
  action: string;
  id: string;
  /** The search landmark's name: "Search users". */
  label: string;
  placeholder: string;
  q: string;
  keep?: Record<string, string>;
  clearTo: string;
}) {
  const form = useRef<HTMLFormElement>(null);
  useFieldsFromUrl(form, { q });
  return (
    <Form ref={form} method="get" action={action} role="search" aria-label={label} className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end">
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="flex-1">
        <label htmlFor={id} className="field-label">
          Search
        </label>
        <input id={id} name="q" type="search" defaultValue={q} maxLength={ADMIN_SEARCH_MAX} placeholder={placeholder} className="field-input" />
      </div>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary flex-1 sm:flex-none">
          Search
        </button>
        {q && (
          <Link to={clearTo} className="btn-secondary flex-1 sm:flex-none">
            Clear
          </Link>
        )}
      </div>
    </Form>
  );
}
