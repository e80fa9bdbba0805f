import { useId, useState, type FormEvent } from "react";
import { useFetcher, useFetchers, useLocation, useSearchParams, useSubmit } from "react-router";

import { ADDED_TO_CART, cartErrorToast } from "~/lib/availability";

import { queueCartWrite } from "./cartWrites";
import { RenderedFor, useRenderedFor, withRenderedFor } from "./RenderedFor";
import { Toast, VIEW_CART } from "./Toast";

interface AddToCartResult {
  ok: boolean;
  message: string;
}

const FETCHER_PREFIX = "add-to-cart:";

/**
 * Adding to the cart, for every Add to Cart button of a grid (or the one of a product page): one form, which each
 * button posts through its `form` attribute with its own product, so a page of 24 cards renders one form rather than
 * 24. Without JavaScript the form posts and the action comes back to this page, which shows the toast. With it, the
 * submit handler adds the product with a fetcher and the page stays put. Each product has a fetcher and a toast of its
 * own (keyed by its id): adding a second product while the first is on its way neither cancels the first nor loses
 * what it answers. The adds go to the server one at a time (cartWrites.ts: a visitor's cookie cart would lose one),
 * and a product waiting its turn shows "Adding..." as one on its way does.
 */
export function useAddToCart() {
  const formId = useId();
  const submit = useSubmit();
  const fetchers = useFetchers();
  const location = useLocation();
  const renderedFor = useRenderedFor();
  const [addedKeys, setAddedKeys] = useState<string[]>([]);
  /** Clicked and not yet answered: waiting for the add before it, or on its way. */
  const [queuedKeys, setQueuedKeys] = useState<string[]>([]);
  const adding = new Set([...fetchers.filter((fetcher) => fetcher.key.startsWith(FETCHER_PREFIX) && fetcher.state !== "idle").map((fetcher) => fetcher.key), ...queuedKeys]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const button = (event.nativeEvent as SubmitEvent).submitter;
    const productId = button instanceof HTMLButtonElement ? button.value : "";
    if (!productId) return;
    event.preventDefault();
    const key = FETCHER_PREFIX + productId;
    // Its button stays focusable while adding (aria-disabled, so the focus stays on it): a second press waits.
    if (adding.has(key)) return;
    setQueuedKeys((keys) => [...keys, key]);
    setAddedKeys((keys) => (keys.includes(key) ? keys : [...keys, key]));
    // The submission's promise settles once the action has answered and the page's data is reloaded.
    void queueCartWrite(() => submit(withRenderedFor({ productId }, renderedFor), { method: "post", action: "/cart/add", navigate: false, fetcherKey: key })).then(() =>
      setQueuedKeys((keys) => keys.filter((queued) => queued !== key)),
    );
  };

  return {
    formId,
    isAdding: (productId: number) => adding.has(FETCHER_PREFIX + productId),
    /** The form the buttons post; render it once, anywhere on the page. */
    form: (
      <form id={formId} method="post" action="/cart/add" data-discover="true" onSubmit={onSubmit} hidden>
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <RenderedFor />
      </form>
    ),
    toasts: addedKeys.map((key) => <AddToCartToast key={key} fetcherKey={key} />),
  };
}

function AddToCartToast({ fetcherKey }: { fetcherKey: string }) {
  const { data } = useFetcher<AddToCartResult>({ key: fetcherKey });
  const added = data?.ok === true;
  return <Toast message={data?.message ?? null} tone={added ? "success" : "error"} id={data} link={added ? VIEW_CART : undefined} />;
}

/**
 * The toast of a page that a plain form's add (no JavaScript) comes back to, with `added` or `cartError` in its
 * address; else the page's own message (`otherwise`, kept until closed when `lasting`). Rendered always: its live
 * region must be in the page before a message goes into it (Toast.tsx). `saidInPlace`: refusals the page says where
 * they belong (the size picker's), not in a toast as well.
 */
export function ReturnedAddToast({ otherwise = null, lasting = false, saidInPlace = [] }: { otherwise?: string | null; lasting?: boolean; saidInPlace?: readonly string[] }) {
  const [searchParams] = useSearchParams();
  const returned = searchParams.get("cartError");
  const refused = returned !== null && saidInPlace.includes(returned) ? null : cartErrorToast(returned);
  const added = !refused && searchParams.has("added");
  return (
    <Toast
      tone={refused ? "error" : "success"}
      message={refused ?? (added ? ADDED_TO_CART : otherwise)}
      id={searchParams.get("added")}
      link={added ? VIEW_CART : undefined}
      lasting={lasting && !refused && !added}
    />
  );
}

/** One product's button, posting `useAddToCart`'s form (`formId`). No hooks: a grid page renders 24. */
export function AddToCartButton({
  formId,
  productId,
  productName,
  available,
  adding,
  className = "",
}: {
  formId: string;
  productId: number;
  productName: string;
  available: boolean;
  adding: boolean;
  className?: string;
}) {
  if (!available) return <OutOfStockButton productName={productName} className={className} />;
  // The name starts with the words on the button (WCAG 2.5.3), so "click Add to Cart" by voice finds it; the
  // product follows, telling a grid's buttons apart.
  const text = adding ? "Adding..." : "Add to Cart";
  const name = adding ? `Adding to Cart: ${productName}` : `Add to Cart: ${productName}`;
  return (
    // The button carries the product: a form posted without JavaScript sends the submitter's name and value.
    <button type="submit" form={formId} name="productId" value={productId} className={`btn-primary ${className}`} aria-disabled={adding || undefined} aria-label={name}>
      {text}
    </button>
  );
}

/** In Add to Cart's place when the product cannot be bought; named like it ("Out of Stock: {name}"), as a grid has several. */
export function OutOfStockButton({ productName, className = "" }: { productName: string; className?: string }) {
  return (
    <button type="button" disabled className={`btn-secondary ${className}`} aria-label={`Out of Stock: ${productName}`}>
      Out of Stock
    </button>
  );
}
