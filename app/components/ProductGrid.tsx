import { useMemo, useRef, useState, type FocusEvent, type MouseEvent, type TouchEvent } from "react";
import { PrefetchPageLinks, useNavigate } from "react-router";

import type { ProductSummary } from "~/lib/schemas/product";
import { ProductCard } from "./ProductCard";

/** The card links this grid navigates for (ProductCard marks them). */
const cardLinkOf = (target: EventTarget): HTMLAnchorElement | null => (target instanceof Element ? target.closest<HTMLAnchorElement>("a[data-card-link]") : null);

/**
 * One column on phones up to four on wide screens; cards never narrower than 250px. Only the first card's picture is
 * fetched at once, with high priority: it is the largest paint on every screen size. The others load lazily, so on a
 * phone (one column, the first card alone in view) they no longer compete with the page's CSS, scripts and that first
 * picture; on wide screens the rest of the first row starts as soon as the layout places it in view.
 *
 * The cards' links are plain <a>s, and the grid does for all of them what a <Link> does for one: a plain click
 * navigates in the app, and pointing at or focusing a card prefetches its page. A <Link> costs the server a dozen hooks
 * to render; with 24 a page, the links were the largest part of rendering a grid page.
 */
export function ProductGrid({ products }: { products: ProductSummary[] }) {
  const navigate = useNavigate();
  const [intent, setIntent] = useState<string | null>(null);
  const intentTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const onClick = (event: MouseEvent) => {
    const link = cardLinkOf(event.target);
    // Modified and middle clicks keep the browser's own behaviour (a new tab, a download).
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(link.pathname + link.search);
  };
  // As <Link prefetch="intent">: a card pointed at (or focused, or touched) for 100 ms, not every card the pointer crosses.
  const onIntent = (event: MouseEvent | FocusEvent | TouchEvent) => {
    clearTimeout(intentTimer.current);
    const link = cardLinkOf(event.target);
    if (link) intentTimer.current = setTimeout(() => setIntent(link.pathname + link.search), 100);
  };
  const onLeave = () => clearTimeout(intentTimer.current);
  // The prefetch link changes with the intent; the cards need not render again.
  const cards = useMemo(() => products.map((product, index) => <ProductCard key={product.id} product={product} priority={index === 0} />), [products]);
  return (
    <div
      className="grid grid-cols-[repeat(auto-fill,minmax(250px,1fr))] gap-5"
      onClick={onClick}
      onMouseOver={onIntent}
      onFocus={onIntent}
      onTouchStart={onIntent}
      onMouseOut={onLeave}
      onBlur={onLeave}
    >
      {cards}
      {intent && <PrefetchPageLinks page={intent} />}
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
