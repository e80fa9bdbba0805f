import { Link } from "react-router";

import { isPurchasable } from "~/lib/availability";
import { formatPrice } from "~/lib/format";
import type { ProductView } from "~/lib/schemas/product";
import { AddToCartButton } from "./AddToCartButton";
import { ProductImage } from "./ProductImage";
import { Stars } from "./Stars";

export function ProductCard({ product, priority = false }: { product: ProductView; priority?: boolean }) {
  const available = isPurchasable(product);
  return (
    <article
      className={`group card flex flex-col overflow-hidden transition-shadow hover:shadow-md ${available ? "" : "bg-slate-100 dark:bg-slate-900/60"}`}
      data-testid="product-card"
    >
      <Link to={`/product/${product.id}`} className="relative block" prefetch="intent">
        <ProductImage
          src={product.imageUrl}
          alt={`${product.brand} ${product.name}`}
          loading={priority ? "eager" : "lazy"}
          fetchPriority={priority ? "high" : undefined}
          className={`aspect-square w-full bg-slate-100 object-cover transition-transform duration-300 group-hover:scale-[1.02] dark:bg-slate-800 ${available ? "" : "opacity-60 grayscale"}`}
        />
        {!available && (
          <span className="absolute left-3 top-3 rounded-full bg-slate-900/85 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-white dark:bg-white/90 dark:text-slate-900">
            Out of Stock
          </span>
        )}
      </Link>
      <div className="flex flex-1 flex-col gap-1 p-4">
        <p className="text-xs font-semibold uppercase tracking-wider text-slate-600 dark:text-slate-400">{product.brand}</p>
        <h2 className="text-base font-semibold leading-snug">
          <Link to={`/product/${product.id}`} className="hover:text-brand-700 dark:hover:text-brand-300" prefetch="intent">
            {product.name}
          </Link>
        </h2>
        {product.reviewCount > 0 && product.averageRating !== null && (
          <p className="flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400">
            <Stars rating={product.averageRating} />
            <span>
              {product.averageRating.toFixed(1)} ({product.reviewCount})
            </span>
          </p>
        )}
        <p className="mt-auto pt-2 text-lg font-bold text-slate-900 dark:text-white">{formatPrice(product.price)}</p>
        <AddToCartButton productId={product.id} productName={product.name} available={available} className="mt-2 w-full" />
      </div>
    </article>
  );
}
