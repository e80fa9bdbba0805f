import { useFetcher, useLocation } from "react-router";

import type { Theme } from "~/lib/constants";
import { MoonIcon, SunIcon } from "./icons";

/** Posts the other theme to /theme: a cookie the server renders from, so a page never flashes the wrong theme. */
export function ThemeToggle({ theme }: { theme: Theme }) {
  const fetcher = useFetcher({ key: "theme" });
  const location = useLocation();
  const next: Theme = theme === "dark-theme" ? "light-theme" : "dark-theme";
  const label = next === "dark-theme" ? "Switch to dark theme" : "Switch to light theme";
  return (
    <fetcher.Form
      method="post"
      action="/theme"
      onSubmit={(event) => {
        // With JavaScript only the cookie is needed, no trip back to the page.
        event.preventDefault();
        fetcher.submit({ theme: next }, { method: "post", action: "/theme" });
      }}
    >
      <input type="hidden" name="theme" value={next} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button
        type="submit"
        aria-label={label}
        title={label}
        className="inline-flex size-11 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        {theme === "dark-theme" ? <SunIcon className="size-5" /> : <MoonIcon className="size-5" />}
      </button>
    </fetcher.Form>
  );
}
