import { useFetcher, useLocation } from "react-router";

import { Toast } from "./Toast";

interface AddToCartResult {
  ok: boolean;
  message: string;
}

/**
 * Adds one unit. Without JavaScript it is a plain form that comes back to this page; with it, a fetcher that stays
 * on the page and shows a toast. A plain <form>, not fetcher.Form: the submit handler hands the fetcher its data, so
 * the router's form machinery (resolving the action against the route tree) would only cost every card of a grid
 * page render time.
 */
export function AddToCartButton({ productId, productName, available, className = "" }: { productId: number; productName: string; available: boolean; className?: string }) {
  const fetcher = useFetcher<AddToCartResult>();
  const location = useLocation();
  const adding = fetcher.state !== "idle";
  if (!available) {
    return (
      <button type="button" disabled className={`btn-secondary ${className}`}>
        Out of Stock
      </button>
    );
  }
  return (
    <>
      <form
        method="post"
        action="/cart/add"
        data-discover="true"
        onSubmit={(event) => {
          event.preventDefault();
          fetcher.submit({ productId: String(productId) }, { method: "post", action: "/cart/add" });
        }}
      >
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        {/* The button carries the product: a form posted without JavaScript sends its name and value. */}
        <button type="submit" name="productId" value={productId} className={`btn-primary ${className}`} disabled={adding} aria-label={`Add ${productName} to cart`}>
          {adding ? "Adding..." : "Add to Cart"}
        </button>
      </form>
      <Toast message={fetcher.data?.message ?? null} tone={fetcher.data?.ok === false ? "error" : "success"} id={fetcher.data} />
    </>
  );
}
