import { ONE_SIZE, onlyLeft } from "./sizes";

/** A product can be bought when it is marked available and has stock: one rule for the grid, the page and the cart. */
export function isPurchasable(product: { productAvailable: boolean; stockQuantity: number }): boolean {
  return product.productAvailable && product.stockQuantity > 0;
}

/** SPEC's alert when a cart line would go above its size's stock: the cart's stepper says it, the server refuses it. */
export const ABOVE_STOCK = "Cannot add more than available stock";

export const NO_LONGER_AVAILABLE = "No longer available";

/**
 * Why a cart line cannot be bought as it stands (a product taken off sale, a sold-out size, fewer pairs left than the
 * line holds), in the product page's words; null when it can. The cart flags it and holds back the checkout; the
 * order service refuses such a line anyway.
 */
export function cartLineProblem(line: { productAvailable: boolean; stockQuantity: number; quantity: number; sizeLabel: string }): string | null {
  if (!line.productAvailable) return NO_LONGER_AVAILABLE;
  if (line.stockQuantity <= 0) return line.sizeLabel === ONE_SIZE ? "Sold out" : "Sold out in this size";
  if (line.quantity > line.stockQuantity) return onlyLeft(line.stockQuantity);
  return null;
}

/** What the cart's summary says while a line cannot be bought as it stands. */
export const CHECKOUT_BLOCKED = "Some items can't be bought as they are. Lower their quantity or remove them to check out.";
