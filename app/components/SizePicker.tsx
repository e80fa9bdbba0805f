import { useEffect, useRef, useState, type FormEvent } from "react";
import { useFetcher, useLocation, useRevalidator, useSearchParams } from "react-router";

import type { Category } from "~/lib/constants";
import { FEW_LEFT, SELECT_A_SIZE, SIZE_GUIDES, SIZE_REFUSALS, UNKNOWN_SIZE, onlyLeft, sizeNoLongerSold, sizePickerId, type SizeView } from "~/lib/sizes";
import { OutOfStockButton } from "./AddToCartButton";
import { queueCartWrite } from "./cartWrites";
import { RenderedFor, useRenderedFor, withRenderedFor } from "./RenderedFor";
import { Toast, VIEW_CART } from "./Toast";
import { useMenu } from "./useMenu";

interface AddResult {
  ok: boolean;
  message: string;
}

/**
 * Add to Cart for a product with a choice of sizes: a labelled radio group (arrow keys move between sizes, sold-out
 * sizes are shown but cannot be chosen) and the button. Without JavaScript the form posts to /cart/add and comes back
 * here with a toast, or, refused for its size ('Please select a size' from the server), at the picker (the address's
 * fragment), which says it under the sizes as it does with JavaScript. With it, a missing choice is caught here first,
 * and the add goes through a fetcher so the page stays put.
 */
export function SizePicker({ productId, productName, category, sizes, available }: { productId: number; productName: string; category: Category; sizes: SizeView[]; available: boolean }) {
  const fetcher = useFetcher<AddResult>({ key: `add-to-cart:${productId}` });
  const location = useLocation();
  const renderedFor = useRenderedFor();
  const [searchParams] = useSearchParams();
  const group = useRef<HTMLFieldSetElement>(null);
  const revalidator = useRevalidator();
  // The size chosen, as the page's data has it now: a size removed since (the data reloaded) is no longer chosen.
  const [chosenId, setChosenId] = useState<number | null>(null);
  const chosen = sizes.find((size) => size.id === chosenId) ?? null;
  // What is wrong with the choice: none made (caught here, or by the server for a form sent without JavaScript, whose
  // answer comes back in the address as cartError), or a size no longer sold, until a size is chosen.
  const [problem, setProblem] = useState<string | null>(() => {
    const returned = searchParams.get("cartError");
    if (returned === UNKNOWN_SIZE) return sizeNoLongerSold();
    return returned !== null && SIZE_REFUSALS.includes(returned) ? returned : null;
  });
  // Waiting for an add of the page's grid ("You may also like") to be answered first: cartWrites.ts.
  const [queued, setQueued] = useState(false);
  const adding = queued || fetcher.state !== "idle";
  // The chosen size was removed while the page was open (an admin's save): the server refuses it as not one of the
  // product's sizes. Said here, in the shop's words, and the page's data is loaded again, so the sizes shown are the
  // ones sold now and the removed one is no longer chosen (a refused add reloads nothing by itself).
  const refusedSize = fetcher.state === "idle" && fetcher.data?.ok === false && fetcher.data.message === UNKNOWN_SIZE ? fetcher.data : null;
  useEffect(() => {
    if (!refusedSize) return;
    setProblem(sizeNoLongerSold(sizes.find((size) => size.id === chosenId)?.label));
    setChosenId(null);
    void revalidator.revalidate();
    // Once for each refusal (its answer is a new object), whatever else changed.
  }, [refusedSize]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The button stays focusable while adding (aria-disabled, so the focus stays on it): a second press waits.
    if (adding) return;
    if (!chosen) {
      setProblem(SELECT_A_SIZE);
      group.current?.querySelector<HTMLInputElement>("input:not(:disabled)")?.focus();
      return;
    }
    setQueued(true);
    void queueCartWrite(() => fetcher.submit(withRenderedFor({ productId: String(productId), sizeId: String(chosen.id) }, renderedFor), { method: "post", action: "/cart/add" })).then(() => setQueued(false));
  };

  const hintId = `size-hint-${productId}`;
  const missingId = `size-missing-${productId}`;
  return (
    <form id={sizePickerId(productId)} method="post" action="/cart/add" onSubmit={onSubmit} className="mt-6" noValidate>
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <RenderedFor />
      {/* Described by the line under the sizes and, once the shopper tried without one, by the request to choose one. */}
      <fieldset ref={group} aria-describedby={problem ? `${missingId} ${hintId}` : hintId}>
        {/* The legend names the group; floated, so the size guide can sit on its line. */}
        <legend className="float-left text-sm font-semibold leading-11">Size</legend>
        <div className="flex justify-end">
          <SizeGuide category={category} />
        </div>
        <div className="clear-both mt-1 grid grid-cols-4 gap-2 sm:grid-cols-6">
          {sizes.map((size) => {
            const soldOut = size.stockQuantity <= 0;
            const few = !soldOut && size.stockQuantity < FEW_LEFT;
            return (
              <label
                key={size.id}
                className={`relative flex min-h-12 cursor-pointer flex-col items-center justify-center rounded-lg border px-1 py-1.5 text-center text-sm font-semibold transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 has-[:focus-visible]:ring-offset-2 dark:ring-offset-slate-950 ${
                  soldOut
                    ? "cursor-not-allowed border-dashed border-slate-300 text-slate-400 line-through dark:border-slate-700 dark:text-slate-500"
                    : "border-slate-300 hover:border-slate-500 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-600 has-[:checked]:text-white dark:border-slate-600 dark:hover:border-slate-400 dark:has-[:checked]:border-brand-400 dark:has-[:checked]:bg-brand-400 dark:has-[:checked]:text-slate-950"
                }`}
              >
                <input
                  type="radio"
                  name="sizeId"
                  value={size.id}
                  disabled={soldOut || !available}
                  // Held by the page's choice (not the browser's alone), so a size removed meanwhile is never left chosen.
                  checked={size.id === chosenId}
                  className="sr-only"
                  // Its name is written out: one from the label's lines would read "EU 30 , sold out" (Chromium puts a
                  // space between the label's blocks, a hidden ", sold out" among them) and "EU 27 3 left".
                  aria-label={soldOut ? `${size.label}, sold out` : few ? `${size.label}, ${size.stockQuantity} left` : size.label}
                  onChange={() => {
                    setChosenId(size.id);
                    setProblem(null);
                  }}
                />
                {/* Said by the radio's name; hidden here, so reading the page does not say it twice. */}
                <span aria-hidden="true">{size.label}</span>
                {few && <span aria-hidden="true" className="text-[0.7rem] font-medium no-underline opacity-80">{`${size.stockQuantity} left`}</span>}
              </label>
            );
          })}
        </div>
      </fieldset>
      {/* Not a live region: what it says of a chosen size, the size's radio has just said ("EU 27, 3 left"). */}
      <p id={hintId} className="mt-2 min-h-5 text-sm text-slate-600 dark:text-slate-400">
        {sizeHint(sizes, chosen, available)}
      </p>
      {problem && (
        <p id={missingId} role="alert" className="field-error">
          {problem}
        </p>
      )}
      <div className="mt-4">
        {available ? (
          <button type="submit" className="btn-primary min-w-44" aria-disabled={adding || undefined} aria-label={`${adding ? "Adding to Cart" : "Add to Cart"}: ${productName}`}>
            {adding ? "Adding..." : "Add to Cart"}
          </button>
        ) : (
          <OutOfStockButton productName={productName} className="min-w-44" />
        )}
      </div>
      <Toast
        message={fetcher.state === "idle" && !refusedSize ? (fetcher.data?.message ?? null) : null}
        tone={fetcher.data?.ok === false ? "error" : "success"}
        id={fetcher.data}
        link={fetcher.data?.ok ? VIEW_CART : undefined}
      />
    </form>
  );
}

/** The category's size chart (EU, UK, US and foot length), opened from the picker; a disclosure, so no script is needed. */
function SizeGuide({ category }: { category: Category }) {
  const menu = useMenu();
  const rows = SIZE_GUIDES[category];
  if (!rows) return null;
  return (
    // It covers the sizes on a phone: Escape, a tap elsewhere or the summary again put it away.
    <details ref={menu} className="relative text-sm">
      <summary className="inline-flex min-h-11 cursor-pointer list-none items-center font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">Size guide</summary>
      <div className="absolute right-0 z-20 mt-2 w-[min(22rem,calc(100vw-2rem))] rounded-2xl border border-slate-200 bg-white p-4 shadow-xl dark:border-slate-700 dark:bg-slate-900">
        <table className="w-full text-left text-sm tabular-nums">
          <caption className="mb-2 text-left font-semibold">{`${category}: find your size`}</caption>
          <thead className="text-xs uppercase tracking-wider text-slate-500 dark:text-slate-400">
            <tr>
              <th scope="col" className="py-1">EU</th>
              <th scope="col" className="py-1">UK</th>
              <th scope="col" className="py-1">US</th>
              <th scope="col" className="py-1">Foot (cm)</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.map((row) => (
              <tr key={row.eu}>
                <th scope="row" className="py-1 font-semibold">{row.eu}</th>
                <td className="py-1">{row.uk}</td>
                <td className="py-1">{row.us}</td>
                <td className="py-1">{row.footCm}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {category === "Kids" && <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">US: C for little kids, Y for big kids (13C comes before 1Y).</p>}
        <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">Measure your foot from heel to longest toe; between two sizes, take the larger.</p>
      </div>
    </details>
  );
}

/** What the line under the sizes says: the chosen size's stock, else how to choose. */
function sizeHint(sizes: SizeView[], chosen: SizeView | null, available: boolean): string | null {
  if (chosen) return chosen.stockQuantity < FEW_LEFT ? `${onlyLeft(chosen.stockQuantity)} in ${chosen.label}` : `${chosen.label}: in stock`;
  if (!available) return null; // off sale: no size can be chosen, and the button says why
  if (sizes.every((size) => size.stockQuantity > 0)) return "Choose your size.";
  return sizes.some((size) => size.stockQuantity > 0) ? "Sold-out sizes are crossed out." : "Every size is sold out.";
}
