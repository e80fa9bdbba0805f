// What an admin is told when a size's saved stock is not the figure they typed. The product form sends each size's
// stock as the form showed it (stockWas), and the server moves the stock by the change typed rather than set it, so that
// pairs ordered while the form was open stay sold (sizes.server.ts, newStock). The admin then learns, per size, why
// the figure saved differs from the one typed.

/** One size whose stock was saved as another figure than the one typed, because of orders placed or cancelled meanwhile. */
export interface StockMove {
  label: string;
  /** The stock saved. */
  saved: number;
  /** Pairs taken by orders while the form was open; below zero, pairs that came back (an order cancelled). */
  sold: number;
}

export const PRODUCT_SAVED = "Product saved";

/** The one-time parameter (one-time-params.ts) that carries a save's stock moves, signed (stock-moves.server.ts). */
export const STOCK_MOVES_PARAM = "moved";

/**
 * "EU 40 saved as 8: 2 sold while you were editing"; "EU 40 saved as 12: 2 came back from a cancellation while you were
 * editing" (a cancelled order puts its pairs back: the order-status triggers of migrations/0006).
 */
export function stockMoveText({ label, saved, sold }: StockMove): string {
  const why = sold > 0 ? `${sold} sold` : `${-sold} came back from a cancellation`;
  return `${label} saved as ${saved}: ${why} while you were editing`;
}

/** The toast of a saved product form: "Product saved", then a sentence per size saved as another figure. */
export function savedMessage(moves: readonly StockMove[] | null | undefined): string {
  return moves?.length ? `${PRODUCT_SAVED}. ${moves.map((move) => `${stockMoveText(move)}.`).join(" ")}` : PRODUCT_SAVED;
}
