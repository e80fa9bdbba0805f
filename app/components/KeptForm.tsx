import { useEffect, useState } from "react";

import { takeKeptForm } from "~/lib/kept-form";
import { useRenderedFor } from "./RenderedFor";

/**
 * What a form kept under `key` when its session ended (app/lib/kept-form.ts), read once after it loads again for the
 * same user; null until then, and always when nothing was kept. Read after the first render (the server knows nothing
 * of it): a form that uses it is keyed on it, so that its fields start again from what was kept.
 */
export function useKeptForm(key: string | null): URLSearchParams | null {
  const user = useRenderedFor();
  const [kept, setKept] = useState<URLSearchParams | null>(null);
  useEffect(() => {
    if (key === null) return;
    const taken = takeKeptForm(key, user);
    if (taken) setKept(taken);
  }, [key, user]);
  return kept;
}

/**
 * Says, at the top of a form given back what was typed before a login, that it was. A plain line, no live region: it
 * comes with the page (just after its first render), where the form starts, and the form's own status and alert
 * regions stay the page's only ones.
 */
export function KeptNote({ kept }: { kept: URLSearchParams | null }) {
  if (!kept) return null;
  return (
    <p className="rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-sm text-slate-800 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100" data-testid="kept-note">
      Your session had ended, so what you typed was kept while you logged in again. Check it, then send it again.
    </p>
  );
}
