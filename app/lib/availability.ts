import { GUEST_CART_MAX_LINES } from "./constants";
import { SIGNED_IN_AS_ANOTHER } from "./rendered-for";
import { ONE_SIZE, onlyLeft, SELECT_A_SIZE, UNKNOWN_SIZE } from "./sizes";

/** A product can be bought when it is marked available and has stock: one rule for the grid, the page and the cart. */
export function isPurchasable(product: { productAvailable: boolean; stockQuantity: number }): boolean {
  return product.productAvailable && product.stockQuantity > 0;
}

/** SPEC's alert when a cart line would go above its size's stock: the cart's stepper says it, the server refuses it. */
export const ABOVE_STOCK = "Cannot add more than available stock";

export const NO_LONGER_AVAILABLE = "No longer available";

/** The toast of an add to the cart that worked. */
export const ADDED_TO_CART = "Added to your cart";

export const PRODUCT_NOT_FOUND = "Product not found";
export const OUT_OF_STOCK = "This product is out of stock";
export const GUEST_CART_FULL = `A cart holds at most ${GUEST_CART_MAX_LINES} different products`;

/** Every reason an add to the cart is refused, as the cart service words it (and the check of whom the page was for). */
const CART_REFUSALS: ReadonlySet<string> = new Set([PRODUCT_NOT_FOUND, OUT_OF_STOCK, SELECT_A_SIZE, UNKNOWN_SIZE, ABOVE_STOCK, GUEST_CART_FULL, SIGNED_IN_AS_ANOTHER]);
export const CART_ADD_FAILED = "Could not add this to your cart";

/**
 * What a page's toast says for the cartError in its address (a plain form's refused add comes back with the reason
 * there): the cart's own words only. Anything else is a link someone made up, and the shop's toast must not say what
 * a stranger wrote (such a page would even be kept in the shared cache), so it gets the plain failure.
 */
export function cartErrorToast(cartError: string | null): string | null {
  if (cartError === null) return null;
  return CART_REFUSALS.has(cartError) ? cartError : CART_ADD_FAILED;
}

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
