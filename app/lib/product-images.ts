// Rules and words about a product's pictures that the forms, the gallery and the server share.

/** A product has 1 to 8 pictures; the first is the card's. The database holds the same limit (migrations/0007). */
export const PRODUCT_IMAGES_MAX = 8;
export const ALT_TEXT_MAX = 200;

export const PICTURE_MESSAGES = {
  tooMany: `A product has at most ${PRODUCT_IMAGES_MAX} pictures`,
  none: "A product needs at least one picture",
  unknown: "No such picture on this product",
  repeated: "A picture is listed twice",
  place: "The new pictures' places do not fit the list of pictures",
  changed: "The product was changed by someone else meanwhile; reload it and try again",
} as const;

/**
 * "Stride Classics Metro Court Sneaker, picture 2 of 4" (just the brand and name when it is the only one), and the
 * admin's words for it when there are some.
 */
export function pictureAlt(product: { brand: string; name: string }, n: number, total: number, altText?: string | null): string {
  const base = total > 1 ? `${product.brand} ${product.name}, picture ${n} of ${total}` : `${product.brand} ${product.name}`;
  return altText ? `${base}: ${altText}` : base;
}
