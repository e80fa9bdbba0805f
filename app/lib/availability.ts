/** A product can be bought when it is marked available and has stock: one rule for the grid, the page and the cart. */
export function isPurchasable(product: { productAvailable: boolean; stockQuantity: number }): boolean {
  return product.productAvailable && product.stockQuantity > 0;
}
