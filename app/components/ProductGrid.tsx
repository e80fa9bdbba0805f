import type { ProductSummary } from "~/lib/schemas/product";
import { ProductCard } from "./ProductCard";

/**
 * One column on phones up to four on wide screens; cards never narrower than 250px. Only the first card's picture is
 * fetched at once, with high priority: it is the largest paint on every screen size. The others load lazily, so on a
 * phone (one column, the first card alone in view) they no longer compete with the page's CSS, scripts and that first
 * picture; on wide screens the rest of the first row starts as soon as the layout places it in view.
 */
export function ProductGrid({ products }: { products: ProductSummary[] }) {
  return (
    <div className="grid grid-cols-[repeat(auto-fill,minmax(250px,1fr))] gap-5">
      {products.map((product, index) => (
        <ProductCard key={product.id} product={product} priority={index === 0} />
      ))}
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
