import { z } from "zod";

import { apiResource, endpoint, idParam, json, parseJsonField, readMultipart } from "~/lib/api.server";
import { BANK_SLIP_MAX_BYTES, BANK_SLIP_MESSAGES } from "~/lib/file-types";
import { ADMIN_PAGE_SIZE, adminOrderListQuerySchema } from "~/lib/schemas/backoffice";
import { IDEMPOTENCY_KEY_HEADER, orderHeadersSchema, orderInputSchema, orderSchema, orderStatusChangeSchema, orderStatusQuerySchema } from "~/lib/schemas/order";
import { listAllOrdersMatching, listOrdersPage, ORDER_VIEWS } from "~/services/backoffice.server";
import { changeOrderStatus, getBankSlip, listCustomerOrders, placeOrder, readBankSlip } from "~/services/orders.server";
import { mailerFor } from "~/services/outbox.server";
import { pageHeaders } from "./paging.server";

const auth401 = { description: "No token, or an invalid or expired one" };
const admin403 = { description: "Not an admin" };

export const ordersApi = apiResource("/api/orders", {
  "POST /": endpoint({
    summary:
      "Place an order: multipart `order` (JSON) and `bankSlip` (JPEG, PNG or PDF under 10 MB). Names, prices and the total come from the catalogue. " +
      "With an Idempotency-Key header, a second request of the same customer with the same key answers the first's order instead of placing another.",
    auth: "user",
    headers: orderHeadersSchema,
    multipart: { order: orderInputSchema, bankSlip: "binary" },
    responses: {
      201: { description: "The order, status PENDING; or, for an Idempotency-Key already used by this customer, the order it placed (Idempotent-Replayed: true)", schema: orderSchema },
      400: { description: "Bad input (a missing field, a name or address with control characters, no items, a missing slip, a malformed Idempotency-Key)" },
      401: auth401,
      404: { description: "A line's product does not exist (fieldErrors names the line)" },
      409: { description: "Insufficient stock for {productName}; {productName} is no longer available (taken off sale); or the total differs from expectedTotal (a price changed)" },
      413: { description: "Slip of 10 MB or more" },
      415: { description: "Slip is not a JPEG, PNG or PDF (by its bytes)" },
    },
    handler: async ({ request, context, user, headers }) => {
      const form = await readMultipart(request, BANK_SLIP_MAX_BYTES, { field: "bankSlip", message: BANK_SLIP_MESSAGES.size });
      const input = await parseJsonField(form, "order", orderInputSchema);
      const slip = await readBankSlip(form.get("bankSlip"));
      const idempotencyKey = headers[IDEMPOTENCY_KEY_HEADER];
      const { order, replayed } = await placeOrder(context.db, context.cloudflare.env.BUCKET, user, input, slip, mailerFor(request, context), { idempotencyKey });
      // As the first answer was (Stripe's way), saying it is a replay.
      return json(order, { status: 201, headers: replayed ? { "Idempotent-Replayed": "true" } : undefined });
    },
  }),
  "GET /my": endpoint({
    summary: "The logged-in customer's orders, newest first",
    auth: "user",
    responses: { 200: { description: "Orders", schema: z.array(orderSchema) }, 401: auth401 },
    handler: async ({ context, user }) => json(await listCustomerOrders(context.db, user.id)),
  }),
  "GET /admin/all": endpoint({
    summary:
      "Every order, newest first (admin), optionally by status (any of the six), q (the order number exactly; every word of q starting a word of the customer's name, in any order; or the start of the e-mail or phone) " +
      "and from/to (days YYYY-MM-DD in the shop's time zone, inclusive). Without page or pageSize, every match (API.md's answer); with either, that page alone " +
      "(pageSize 1 to 100, default 20), with X-Total-Count when the total is known exactly (always without q, from and to) and a Link header (rel=\"next\") while more pages follow",
    auth: "admin",
    query: adminOrderListQuerySchema,
    responses: {
      200: { description: "Orders", schema: z.array(orderSchema) },
      400: { description: "Unknown status; a bad page, pageSize, q (over 100 characters) or date; to before from" },
      401: auth401,
      403: admin403,
    },
    handler: async ({ url, context, query }) => {
      const { page, pageSize, ...filters } = query;
      if (page === undefined && pageSize === undefined) return json(await listAllOrdersMatching(context.db, filters));
      const result = await listOrdersPage(context.db, filters, page ?? 1, pageSize ?? ADMIN_PAGE_SIZE, ORDER_VIEWS);
      return json(result.items, { headers: pageHeaders(url, result) });
    },
  }),
  "PUT /admin/{id}/status": endpoint({
    summary:
      "Move an order to any status (admin). To CANCELLED puts the stock back, for the sizes still sold: stockNotReturned lists the lines whose size was removed " +
      "or whose product was deleted (empty for any other move); out of CANCELLED takes it again (409 if it is gone). The customer is e-mailed about it unless notify=false.",
    auth: "admin",
    query: orderStatusQuerySchema,
    responses: {
      200: { description: "The order, with stockNotReturned", schema: orderStatusChangeSchema },
      400: { description: "Unknown status" },
      401: auth401,
      403: admin403,
      404: { description: "No such order" },
      409: { description: "The stock to reopen a cancelled order is gone" },
    },
    handler: async ({ request, context, user, params, query }) =>
      json(await changeOrderStatus(context.db, idParam(params.id, "Order"), query.status, user, mailerFor(request, context), { notifyCustomer: query.notify !== "false" })),
  }),
  "GET /{id}/bank-slip": endpoint({
    summary: "The order's bank slip, inline, with the type its bytes show (admin, or the customer who placed it)",
    auth: "user",
    responses: {
      200: { description: "The slip", contentType: "application/octet-stream" },
      401: auth401,
      403: { description: "Another customer's order" },
      404: { description: "No such order or slip" },
    },
    handler: async ({ context, user, params }) => {
      const id = idParam(params.id, "Order");
      const slip = await getBankSlip(context.db, context.cloudflare.env.BUCKET, id, user);
      return new Response(slip.body, {
        headers: {
          "Content-Type": slip.type,
          "Content-Length": String(slip.size),
          "Content-Disposition": `inline; filename="bank-slip-${id}.${slip.type === "application/pdf" ? "pdf" : slip.type.split("/")[1]}"`,
          "Cache-Control": "private, no-store",
          // The admin's slip viewer frames a PDF slip; workers/app.ts keeps every other answer unframeable.
          "X-Frame-Options": "SAMEORIGIN",
        },
      });
    },
  }),
});
