/** A product can be bought when it is marked available and has stock: one rule for the grid, the page and the cart. */
export function isPurchasable(product: { productAvailable: boolean; stockQuantity: number }): boolean {
  return product.productAvailable && product.stockQuantity > 0;
}

/** SPEC's alert when a cart line would go above its size's stock: the cart's stepper says it, the server refuses it. */
export const ABOVE_STOCK = "Cannot add more than available stock";
