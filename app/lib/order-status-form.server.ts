import { data, type AppLoadContext } from "react-router";

import { changeOrderStatus } from "~/services/orders.server";
import { mailerFor } from "~/services/outbox.server";
import type { SessionUser } from "~/services/auth.server";
import { requireFormAdmin } from "~/services/session.server";
import { readFormData } from "./forms";
import { HttpError, RenderedForRefusal } from "./http";
import { ORDER_STATUS_MESSAGES } from "./constants";
import { stockNotReturnedNote } from "./order-stock";
import { orderStatusFormSchema } from "./schemas/order";

// The admin's status form, posted from the orders screen's Manage dialog and from an order's own page: one action for
// both, so the confirmation step, the messages and the errors are the same wherever the status is changed.

/** "Failed to update order status: <reason>." as one sentence (the service's reasons carry no full stop). */
function failedBecause(reason: string): string {
  return `${ORDER_STATUS_MESSAGES.failed}: ${reason}${/[.!?]$/.test(reason) ? "" : "."}`;
}

export async function orderStatusAction(request: Request, context: AppLoadContext, url: URL) {
  const form = await readFormData(request);
  let admin: SessionUser;
  try {
    // An admin whose other tab logged in as someone else is told so, not sent to / (a customer) or acting as them.
    admin = await requireFormAdmin(request, context, url, form);
  } catch (error) {
    if (error instanceof RenderedForRefusal) {
      const orderId = Number(form.get("orderId")) || null;
      return data({ kind: "error" as const, orderId, status: null, message: error.message, renderedForRefused: true }, { status: error.status });
    }
    throw error;
  }
  const parsed = orderStatusFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    return data({ kind: "error" as const, orderId: null, status: null, message: failedBecause(parsed.error.issues[0]?.message ?? "invalid input") }, { status: 400 });
  }
  const { orderId, status, statusWas, confirm, notify } = parsed.data;
  const notifyCustomer = notify !== "no";
  // Cancelling puts the stock back: without JavaScript (no window.confirm) the form asks once more.
  if (status === "CANCELLED" && confirm !== "yes") return data({ kind: "confirm" as const, orderId, status, notifyCustomer, message: ORDER_STATUS_MESSAGES.cancelConfirmation });
  try {
    const order = await changeOrderStatus(context.db, orderId, status, admin, mailerFor(request, context), { statusWas, notifyCustomer });
    // What the cancellation could not put back is said, never left for the admin to find in the stock later.
    const notReturned = stockNotReturnedNote(order.stockNotReturned);
    const told = notifyCustomer ? "" : " The customer was not e-mailed.";
    const message = `Order #${orderId} is now ${order.status}.${notReturned ? ` ${notReturned}` : ""}${told}`;
    return data({ kind: "updated" as const, orderId, status: order.status, stockNotReturned: order.stockNotReturned.length, message });
  } catch (error) {
    if (error instanceof HttpError) return data({ kind: "error" as const, orderId, status, message: failedBecause(error.message) }, { status: error.status });
    console.error(`Admin orders: changing order ${orderId} to ${status} failed`, error);
    return data({ kind: "error" as const, orderId, status, message: ORDER_STATUS_MESSAGES.failed }, { status: 500 });
  }
}
