import { eq, sum } from "drizzle-orm";

import { readGuestCart } from "~/lib/guest-cart";
import type { SessionUser } from "./auth.server";
import { type Db, schema } from "./db.server";

/** How many items the navigation bar's Cart shows: the server cart for a customer, the cookie cart for a visitor. */
export async function countCartItems(db: Db, user: SessionUser | null, cookieHeader: string | null): Promise<number> {
  if (!user) return readGuestCart(cookieHeader).reduce((total, line) => total + line.quantity, 0);
  const [row] = await db
    .select({ total: sum(schema.cartItems.quantity).mapWith(Number) })
    .from(schema.cartItems)
    .where(eq(schema.cartItems.userId, user.id));
  return row?.total ?? 0;
}
