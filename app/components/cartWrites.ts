// A visitor's cart is one cookie (app/lib/guest-cart.ts), which /cart/add and the cart page's changes write whole, from
// the cart in the cookie their request carried. Two writes on their way at once both start from the same cart, and
// whichever answer comes last undoes the other: two products added quickly, two toasts, one in the cart; or two lines
// raised on /cart, one raise lost. So the page sends its cart writes one at a time: each leaves once the one before it
// has been answered, with the cookie that answer stored. (A customer's cart is rows in D1, changed one statement at a
// time, and gains little from writes at once: one queue for both.)

let last: Promise<void> = Promise.resolve();

/** Runs `write` once every write queued before it has settled; resolves when it has settled too (never rejects). */
export function queueCartWrite(write: () => Promise<unknown>): Promise<void> {
  const settled = last.then(write).then(
    () => undefined,
    () => undefined,
  );
  last = settled;
  return settled;
}
