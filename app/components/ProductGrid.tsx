import { useRef, useState, type FocusEvent, type MouseEvent, type TouchEvent } from "react";
import { PrefetchPageLinks } from "react-router";

import type { ProductSummary } from "~/lib/schemas/product";
import { useAddToCart } from "./AddToCartButton";
import { appLinkOf } from "./AppLink";
import { ProductCard } from "./ProductCard";

/**
 * One column on phones up to four on wide screens; cards never narrower than 250px (SPEC: a card's minimum width).
 * Only the first card's picture is fetched at once, with high priority: it is the largest paint on every screen size.
 * The others load lazily, so on a phone (one column, the first card alone in view) they no longer compete with the
 * page's CSS, scripts and that first picture; on wide screens the rest of the first row starts as soon as the layout
 * places it in view.
 *
 * The cards' links are AppLinks (plain <a>s), and the grid prefetches for all of them as <Link prefetch="intent"> does
 * for one: pointing at, focusing or touching a card prefetches its page. Likewise the cards' Add to Cart buttons
 * share one `useAddToCart` and its one form, where a form and a fetcher a card cost as much again.
 */
export function ProductGrid({ products, eagerFirst = true }: { products: ProductSummary[]; /** false below the fold (a product page's "You may also like"). */ eagerFirst?: boolean }) {
  const cart = useAddToCart();
  const [intent, setIntent] = useState<string | null>(null);
  const intentTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // As <Link prefetch="intent">: a card pointed at (or focused, or touched) for 100 ms, not every card the pointer crosses.
  const onIntent = (event: MouseEvent | FocusEvent | TouchEvent) => {
    clearTimeout(intentTimer.current);
    const link = appLinkOf(event.target);
    if (link) intentTimer.current = setTimeout(() => setIntent(link.pathname + link.search), 100);
  };
  const onLeave = () => clearTimeout(intentTimer.current);
  return (
    <div
      className="grid grid-cols-[repeat(auto-fill,minmax(250px,1fr))] gap-5"
      onMouseOver={onIntent}
      onFocus={onIntent}
      onTouchStart={onIntent}
      onMouseOut={onLeave}
      onBlur={onLeave}
    >
      {/* Memoized: a new intent or an add on its way renders again only the cards it changes. */}
      {products.map((product, index) => (
        <ProductCard key={product.id} product={product} priority={eagerFirst && index === 0} addToCartForm={cart.formId} adding={cart.isAdding(product.id)} />
      ))}
      {intent && <PrefetchPageLinks page={intent} />}
      {cart.form}
      {cart.toasts}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 px-6 py-16 text-center dark:border-slate-700">
      <p className="text-lg font-semibold">{title}</p>
      {children && <div className="mt-2 text-sm text-slate-600 dark:text-slate-400">{children}</div>}
    </div>
  );
}
