import type { ProductSummary } from "~/lib/schemas/product";
import { ProductGrid } from "./ProductGrid";

/** "You may also like" on a product page: other products of its category, as the grid shows them. */
export function RelatedProducts({ products }: { products: ProductSummary[] }) {
  if (!products.length) return null;
  return (
    <section aria-labelledby="related-heading" className="mt-16 border-t border-slate-200 pt-10 dark:border-slate-800">
      <h2 id="related-heading" className="text-xl font-bold tracking-tight">
        You may also like
      </h2>
      <div className="mt-6">
        <ProductGrid products={products} eagerFirst={false} />
      </div>
    </section>
  );
}
