import { memo } from "react";

import { isPurchasable } from "~/lib/availability";
import { formatPrice } from "~/lib/format";
import type { ProductSummary } from "~/lib/schemas/product";
import { AddToCartButton } from "./AddToCartButton";
import { AppLink } from "./AppLink";
import { ProductImage } from "./ProductImage";
import { Stars } from "./Stars";

/**
 * One link a card: the product's name, stretched over the whole card (its ::after covers the article), so the
 * picture opens the product too without a second link to the same page for screen readers and keyboards to pass.
 * The Add to Cart button sits above it. The link is an AppLink, which ProductGrid prefetches on intent.
 */
export const ProductCard = memo(function ProductCard({
  product,
  priority,
  addToCartForm,
  adding,
}: {
  product: ProductSummary;
  priority: boolean;
  /** The grid's `useAddToCart`: the form its button posts, and whether this product is on its way. */
  addToCartForm: string;
  adding: boolean;
}) {
  const available = isPurchasable(product);
  return (
    <article
      className={`group card relative flex flex-col overflow-hidden transition-shadow hover:shadow-md ${available ? "" : "bg-slate-100 dark:bg-slate-900/60"}`}
      data-testid="product-card"
    >
      <ProductImage
        src={product.imageUrl}
        alt={`${product.brand} ${product.name}`}
        loading={priority ? "eager" : "lazy"}
        fetchPriority={priority ? "high" : undefined}
        className={`aspect-square w-full bg-slate-100 object-cover transition-transform duration-300 group-hover:scale-[1.02] dark:bg-slate-800 ${available ? "" : "opacity-60 grayscale"}`}
      />
      {/* Over the picture, which starts the card. */}
      {!available && (
        <span className="absolute left-3 top-3 rounded-full bg-slate-900/85 px-3 py-1 text-xs font-semibold tracking-wide text-white dark:bg-white/90 dark:text-slate-900">
          Out of Stock
        </span>
      )}
      <div className="flex flex-1 flex-col gap-1 p-4">
        <p className="text-xs font-semibold uppercase tracking-wider text-slate-600 dark:text-slate-400">{product.brand}</p>
        <h3 className="text-base font-semibold leading-snug">
          <AppLink to={`/product/${product.id}`} className="after:absolute after:inset-0 group-hover:text-brand-700 dark:group-hover:text-brand-300">
            {product.name}
          </AppLink>
        </h3>
        {product.reviewCount > 0 && product.averageRating !== null && (
          <p className="flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400">
            <Stars rating={product.averageRating} />
            {`${product.averageRating.toFixed(1)} (${product.reviewCount})`}
          </p>
        )}
        <p className="mt-auto pt-2 text-lg font-bold text-slate-900 dark:text-white" data-testid="card-price">
          {formatPrice(product.price)}
        </p>
        {product.sizeChoice && available ? (
          // A shoe needs its size: the choice is made on its page (Label in Name: the words shown start the name).
          <AppLink to={`/product/${product.id}`} className="btn-secondary relative z-10 mt-2 w-full" aria-label={`Choose Size: ${product.name}`}>
            Choose Size
          </AppLink>
        ) : (
          <AddToCartButton
            formId={addToCartForm}
            productId={product.id}
            productName={product.name}
            available={available}
            adding={adding}
            className="relative z-10 mt-2 w-full"
          />
        )}
      </div>
    </article>
  );
});
