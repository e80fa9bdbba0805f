import { ORDER_STATUS_MESSAGES } from "./constants";
import type { OrderView, StockNotReturned } from "./schemas/order";
import { nameWithSize } from "./sizes";

// What the admin is told about the stock a cancellation puts back: the status trigger returns each line's pairs to its
// size, and a line whose size was removed (or whose product was deleted) since has none, so its pairs are not put back.

type Line = Pick<StockNotReturned, "productId" | "productName" | "sizeLabel" | "quantity">;

const WHY: Record<StockNotReturned["reason"], string> = { SIZE_REMOVED: "size no longer sold", PRODUCT_DELETED: "product deleted" };

/** Why a line without a size has no stock to return: its product's row is gone too, or only its size. */
export const reasonOf = (line: Pick<Line, "productId">): StockNotReturned["reason"] => (line.productId === null ? "PRODUCT_DELETED" : "SIZE_REMOVED");

/** "Galle Fort Oxford (EU 42) × 2 (size no longer sold) and Retired Runner × 1 (product deleted)". */
function listed(lines: Line[]): string {
  const each = lines.map((line) => `${nameWithSize(line.productName, line.sizeLabel)} × ${line.quantity} (${WHY[reasonOf(line)]})`);
  return each.length > 1 ? `${each.slice(0, -1).join(", ")} and ${each.at(-1)}` : (each[0] ?? "");
}

/**
 * The question before cancelling, from the order the page shows: the lines whose size is already gone are named (their
 * stock will not be put back); a size removed after the page was read is told in the answer (stockNotReturnedNote).
 */
export function cancelQuestion(items: OrderView["orderItems"]): string {
  const gone = items.filter((item) => item.sizeId === null);
  if (!gone.length) return ORDER_STATUS_MESSAGES.cancelConfirmation;
  return `Cancel this order? Its stock will be put back for the sizes still sold, not for ${listed(gone)}.`;
}

/** After a cancellation, what it could not put back: "Its stock was not put back for …", or "" when all of it was. */
export function stockNotReturnedNote(lines: Line[]): string {
  return lines.length ? `Its stock was not put back for ${listed(lines)}.` : "";
}
