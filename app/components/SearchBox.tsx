import { useEffect, useId, useRef, useState } from "react";
import { Form, Link, useLocation, useNavigate } from "react-router";

import type { ProductView } from "~/lib/schemas/product";
import { quotedWords, shownSearchWords } from "~/lib/search-index";
import { SearchIcon } from "./icons";

export const NO_MATCH = "No shoes found with that name";
const DEBOUNCE_MS = 200;
const SUGGESTIONS = 8;
/** The dropdown under the box: as wide as the box, and at least 20rem (within the screen's width less its margins). */
const PANEL =
  "absolute left-0 top-full z-50 mt-1 w-full min-w-[min(20rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white shadow-xl dark:border-slate-700 dark:bg-slate-900";

/**
 * The navigation's search: a GET form to /search (Enter, and without JavaScript), plus a live dropdown of matching
 * names from GET /api/products/search. It asks with fallback=spelling: the products that have the keyword as typed, or,
 * when none has, those with every word of it ("sneakers" suggests the sneakers), or, when none has those either, the
 * products of the keyword with its spelling corrected ("snekers": "Did you mean “sneakers”?"), one request a keyword
 * whichever it is (a second request after an empty answer would make the shopper wait twice as long for those). A new keyword aborts the request of the one before, so a slow answer to an
 * older keyword can never replace a newer one. A search that fails is logged, and the dropdown stays shut (SPEC:
 * "Search failure: logged only"): typing on a dropped connection must not take the page down.
 */
export function SearchBox({ id }: { id: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const [found, setFound] = useState<ProductView[] | null>(null);
  // The words the suggestions have, when they are not the keyword as typed (the server's words: the same rule).
  const [byWords, setByWords] = useState<string[] | null>(null);
  // The keyword as the server corrected it, when the suggestions are that keyword's ("snekers": "sneakers").
  const [corrected, setCorrected] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const inFlight = useRef<AbortController>(undefined);
  const initial = location.pathname === "/search" ? (new URLSearchParams(location.search).get("keyword") ?? "") : "";
  const [value, setValue] = useState(initial);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const wrapper = useRef<HTMLDivElement>(null);
  const listId = useId();
  const results = found ?? [];
  const settled = !loading && found !== null;

  useEffect(() => {
    const close = (event: MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, []);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
    },
    [],
  );
  // A navigation (a chosen result, another page) closes the dropdown.
  useEffect(() => {
    clearTimeout(timer.current);
    setOpen(false);
  }, [location.key]);

  function search(text: string) {
    setValue(text);
    setActive(-1);
    clearTimeout(timer.current);
    const keyword = text.trim().slice(0, 100);
    if (!keyword) return setOpen(false);
    timer.current = setTimeout(() => void suggest(keyword), DEBOUNCE_MS);
  }

  async function suggest(keyword: string) {
    inFlight.current?.abort();
    const request = new AbortController();
    inFlight.current = request;
    setLoading(true);
    setOpen(true);
    try {
      const query = new URLSearchParams({ keyword, page: "1", pageSize: String(SUGGESTIONS), fallback: "spelling" });
      const response = await fetch(`/api/products/search?${query}`, { signal: request.signal });
      if (!response.ok) throw new Error(`The search answered ${response.status}`);
      const products = (await response.json()) as ProductView[];
      if (!request.signal.aborted) {
        setFound(products);
        const matched = response.headers.get("X-Search-Match");
        setByWords(matched === "words" ? shownSearchWords(keyword) : null);
        setCorrected(matched === "spelling" ? correctedHeader(response.headers) : null);
      }
    } catch (error) {
      if (request.signal.aborted) return;
      console.error("Search failed", error);
      setFound(null);
    }
    if (!request.signal.aborted) setLoading(false);
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Escape") {
      // The first Escape closes the suggestions; only a second one lets the browser empty the box.
      if (open) event.preventDefault();
      setOpen(false);
    } else if (event.key === "ArrowDown" && results.length) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % results.length);
    } else if (event.key === "ArrowUp" && results.length) {
      event.preventDefault();
      setActive((index) => (index <= 0 ? results.length - 1 : index - 1));
    } else if (event.key === "Enter" && open && active >= 0 && results[active]) {
      event.preventDefault();
      navigate(`/product/${results[active].id}`);
    }
  }

  const showPanel = open && value.trim() !== "" && settled;
  const noMatch = showPanel && !results.length;
  return (
    <div
      ref={wrapper}
      className="relative w-full"
      // Tab or Shift+Tab out of the box: the suggestions would cover what gets the focus next (WCAG 2.4.11). Only a
      // focus that lands outside closes them (a click on a suggestion in Safari, which does not focus links, has no
      // next element: the mousedown handler covers clicks elsewhere).
      onBlur={(event) => {
        if (event.relatedTarget instanceof Node && !event.currentTarget.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      <Form
        method="get"
        action="/search"
        role="search"
        onSubmit={(event) => {
          clearTimeout(timer.current);
          setOpen(false);
          // On a touch screen the box keeps its keyboard open over the results while it has the focus: let go of it
          // (the results' heading takes the focus, see RouteAnnouncer). With a mouse and keys, stay to refine.
          if (window.matchMedia("(pointer: coarse)").matches) event.currentTarget.querySelector("input")?.blur();
        }}
      >
        <label htmlFor={id} className="sr-only">
          Search shoes
        </label>
        <SearchIcon className="pointer-events-none absolute left-3 top-1/2 size-5 -translate-y-1/2 text-slate-400" />
        <input
          id={id}
          type="search"
          name="keyword"
          placeholder="Search shoes..."
          value={value}
          onChange={(event) => search(event.target.value)}
          onKeyDown={onKeyDown}
          onFocus={() => value.trim() && settled && setOpen(true)}
          maxLength={100}
          autoComplete="off"
          role="combobox"
          aria-expanded={showPanel && results.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={showPanel && active >= 0 ? `${listId}-${active}` : undefined}
          className="field-input pl-10"
        />
      </Form>
      {showPanel && results.length > 0 && (
        // At least 20rem wide (a product's name on a line or two beside its brand) however narrow the box, never wider
        // than the screen; and never taller than the screen under the sticky bar it hangs from (the page's scroll
        // cannot reach below it): its list scrolls to the last suggestion instead, on a phone lying down too.
        <div className={`${PANEL} flex max-h-[min(26rem,calc(100dvh-8rem))] flex-col overflow-hidden md:max-h-[min(26rem,calc(100dvh-4.5rem))]`}>
          {corrected ? (
            <p id={`${listId}-words`} className="px-4 pt-2 text-xs text-slate-500 dark:text-slate-400 wrap-anywhere">
              Did you mean “{corrected}”?
            </p>
          ) : (
            byWords && (
              <p id={`${listId}-words`} className="px-4 pt-2 text-xs text-slate-500 dark:text-slate-400">
                No exact match. Products matching {quotedWords(byWords)}:
              </p>
            )
          )}
          <ul
            id={listId}
            role="listbox"
            aria-label="Matching products"
            aria-describedby={byWords || corrected ? `${listId}-words` : undefined}
            className="min-h-0 flex-1 overflow-auto overscroll-contain py-1"
          >
            {results.map((product, index) => (
              // The link is the option itself (a link inside an option is hidden from screen readers, and a second focus
              // stop): the focus stays in the input (aria-activedescendant), a click still follows the link.
              <li key={product.id} role="none">
                <Link
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={index === active}
                  tabIndex={-1}
                  to={`/product/${product.id}`}
                  className={`flex min-h-11 items-center justify-between gap-3 px-4 py-2 text-sm ${index === active ? "bg-brand-50 dark:bg-slate-800" : "hover:bg-slate-50 dark:hover:bg-slate-800"}`}
                  onMouseEnter={() => setActive(index)}
                >
                  <span className="min-w-0 font-medium">{product.name}</span>
                  {/* A long brand wraps under itself rather than being cut ("Stride C..."). */}
                  <span className="max-w-[45%] shrink-0 text-right text-xs text-slate-600 dark:text-slate-400">{product.brand}</span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
      {/* The live region is always in the page, empty until there is nothing to suggest: a region inserted together
          with its text goes unannounced by many screen readers. It shows as the dropdown only while it speaks. */}
      <p
        role="status"
        className={
          noMatch
            ? `${PANEL} px-4 py-3 text-sm text-slate-600 dark:text-slate-400`
            : "sr-only"
        }
      >
        {noMatch ? NO_MATCH : ""}
      </p>
    </div>
  );
}

/** The corrected keyword of a search answer (X-Search-Corrected, URI-encoded: a header holds Latin-1 only). */
function correctedHeader(headers: Headers): string | null {
  const value = headers.get("X-Search-Corrected");
  if (!value) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
