import { errorJson, parseWith } from "~/lib/api.server";
import { csvLine } from "~/lib/csv";
import { centsToRupees, formatShopDay, formatShopTimestamp } from "~/lib/format";
import { HttpError } from "~/lib/http";
import { groupedPhone } from "~/lib/phone";
import { adminOrderListQuerySchema } from "~/lib/schemas/backoffice";
import { ordersForExport } from "~/services/backoffice.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/orders-csv";

// GET /admin/orders.csv?status=&q=&from=&to=: the orders the list shows for those filters (every page of them), as a
// spreadsheet. Streamed a chunk of orders at a time (ordersForExport), so 100,000 orders never sit in memory at once.

export const CSV_HEADER = ["Order", "Placed (Sri Lanka time)", "Status", "Customer", "E-mail", "Phone", "Shipping address", "Items", "Total (LKR)"] as const;

export async function loader({ request, context, url }: Route.LoaderArgs) {
  // A screen's guard: a visitor goes to the login page, a customer to the shop.
  await requireAdmin(request, context, url);
  let filters;
  try {
    // The list's link always sends good filters; a hand-made URL with a bad one is told what is wrong, as the API does.
    const { page: _page, pageSize: _pageSize, ...rest } = parseWith(adminOrderListQuerySchema, Object.fromEntries(url.searchParams));
    filters = rest;
  } catch (error) {
    if (error instanceof HttpError) return errorJson(error.status, error.message, error.fieldErrors);
    throw error;
  }
  const chunks = ordersForExport(context.db, filters);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // A byte order mark, so spreadsheet programs read the file as UTF-8 (names in Sinhala or Tamil, "×").
      controller.enqueue(encoder.encode(`\uFEFF${csvLine(CSV_HEADER)}`));
    },
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) return controller.close();
        const text = next.value
          .map((order) =>
            csvLine([
              order.id,
              formatShopTimestamp(order.createdAt),
              order.status,
              order.customerName,
              order.customerEmail,
              groupedPhone(order.customerPhone),
              order.shippingAddress,
              order.lines,
              centsToRupees(order.totalCents).toFixed(2),
            ]),
          )
          .join("");
        controller.enqueue(encoder.encode(text));
      } catch (error) {
        // The status line has gone out: all that is left is to cut the file short, and say why in the log.
        console.error("Admin orders CSV: reading the orders failed", error);
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  // Named by the shop's day, as its rows are dated (00:07 on 27 Nov in Sri Lanka is still the 26th in UTC).
  const day = formatShopDay(Date.now());
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="stride-orders-${day}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
