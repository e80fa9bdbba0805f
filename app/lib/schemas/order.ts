import { formIdField, plainText, typeError, z } from "../zod";

import { EMAIL_MAX, ORDER_STATUSES } from "../constants";
import { rupeesToCents } from "../format";

export const ORDER_MAX_LINES = 50;

// The checkout's checks, in SPEC.md §5's order and with its messages.
export const checkoutCustomerSchema = z.object({
  customerName: z
    .string({ error: typeError("Please enter your full name", "Full name must be text") })
    .trim()
    .min(1, "Please enter your full name")
    .max(100, "Full name must be at most 100 characters")
    .check(plainText("Full name")),
  customerEmail: z
    .string({ error: typeError("Please enter your email", "Email must be text") })
    .trim()
    .min(1, "Please enter your email")
    .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
    .pipe(z.email("Please enter a valid email address")),
  customerPhone: z
    .string({ error: typeError("Please enter your phone number", "Phone number must be text, such as \"0771234567\"") })
    .trim()
    .min(1, "Please enter your phone number")
    .regex(/^\+?[\d\s().-]{7,20}$/, "Please enter a valid phone number")
    .refine((phone) => phone.replace(/\D/g, "").length >= 7, "Please enter a valid phone number")
    // Kept with spaces for the brackets and dots: the back office's phone search ignores spaces, dashes and + alone
    // (migrations/0013), so "(077) 123-4567" is found by 0771234567.
    .transform((phone) => phone.replace(/[().]/g, " ").replace(/\s+/g, " ").trim()),
  shippingAddress: z
    .string({ error: typeError("Please enter your shipping address", "Shipping address must be text") })
    .trim()
    .min(1, "Please enter your shipping address")
    .max(500, "Shipping address must be at most 500 characters")
    .check(plainText("Shipping address", { lines: true })),
});

/** The checkout's text fields as typed: a refused checkout without JavaScript shows them again (CheckoutModal). */
export const CHECKOUT_FIELDS = checkoutCustomerSchema.keyof().options;
export type CheckoutValues = Partial<Record<(typeof CHECKOUT_FIELDS)[number], string>>;

/** The API's `order` part. Names and prices may be sent but are ignored: the catalogue decides them. */
export const orderInputSchema = checkoutCustomerSchema.extend({
  orderItems: z
    .array(
      z.object({
        productId: z.number({ error: typeError("productId must be a number") }).int("productId must be a whole number").min(1, "productId must be at least 1"),
        // Optional (additive to API.md): which of the product's sizes; a one-size product needs none.
        sizeId: z.number({ error: typeError("sizeId must be a number") }).int("sizeId must be a whole number").min(1, "sizeId must be at least 1").optional(),
        quantity: z.number({ error: typeError("quantity must be a number") }).int("quantity must be a whole number").min(1, "quantity must be at least 1"),
        // Sent by some clients and ignored whatever they hold (API.md): the catalogue decides the name and the price.
        productName: z.unknown().optional(),
        price: z.unknown().optional(),
      }),
    )
    .min(1, "Your order has no items")
    .max(ORDER_MAX_LINES, `An order holds at most ${ORDER_MAX_LINES} lines`),
  // Optional (additive to API.md): the total the customer was shown, in LKR. When the catalogue's total differs (a
  // price changed since), the order is refused with 409 rather than charged at a total their transfer did not make.
  expectedTotal: z
    .number({ error: typeError("expectedTotal must be a number") })
    .min(0, "expectedTotal must be at least 0")
    .refine((total) => rupeesToCents(total) !== null, "expectedTotal must be in whole cents")
    .optional(),
  // Optional (additive to API.md): true says the items are the customer's server cart as the client showed it (the
  // checkout screen). When the cart holds other lines now (product, size, quantity: another tab changed it), or an
  // item's product or size is gone since, the order is refused with 409 and nothing changes.
  fromCart: z.boolean({ error: typeError("fromCart must be true or false") }).optional(),
});
export type OrderInput = z.infer<typeof orderInputSchema>;

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_KEY_MAX = 100;
const IDEMPOTENCY_KEY_RULE = `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${IDEMPOTENCY_KEY_MAX} letters, digits, '-', '_', '.' or ':'`;
/**
 * A key the client makes for one attempt at an order (a UUID, say): POST /api/orders answers a second request of the
 * same customer with the same key with the order the first placed, instead of placing another (additive to API.md).
 */
export const idempotencyKeySchema = z
  .string({ error: typeError(IDEMPOTENCY_KEY_RULE) })
  .regex(new RegExp(`^[A-Za-z0-9_.:-]{1,${IDEMPOTENCY_KEY_MAX}}$`), IDEMPOTENCY_KEY_RULE);

/** POST /api/orders's request headers. */
export const orderHeadersSchema = z.object({
  [IDEMPOTENCY_KEY_HEADER]: idempotencyKeySchema
    .optional()
    .describe(
      "Optional. One key per attempt at an order: a second request of the same customer with the same key never places a second order; " +
        "it answers 201 with the order the first placed (as it is now), with Idempotent-Replayed: true. Another customer's same key is another order.",
    ),
});

export const orderStatusSchema = z.enum(ORDER_STATUSES, { error: `status must be one of ${ORDER_STATUSES.join(", ")}` });
export const orderStatusQuerySchema = z.object({
  status: orderStatusSchema,
  // Additive to API.md: notify=false moves the order without e-mailing the customer (a correction); the default tells them.
  notify: z.enum(["true", "false"], { error: "notify must be true or false" }).optional(),
});

/** The admin's status form (the orders screen's Manage dialog, an order's own page). */
export const orderStatusFormSchema = z.object({
  intent: z.literal("status", { error: "Unknown action" }),
  orderId: formIdField("Order not found"),
  status: orderStatusSchema,
  // The status the admin's page showed: a change made meanwhile (another tab, another admin) is not overwritten.
  statusWas: orderStatusSchema.optional(),
  confirm: z.literal("yes").optional().catch(undefined),
  // The form's "E-mail the customer" box: a hidden "no" before the checkbox's "yes", so an unticked box says no; a post
  // without either tells the customer, as before.
  notify: z.enum(["yes", "no"], { error: "Unknown notify value" }).optional(),
});

export const orderSchema = z.object({
  id: z.number().int(),
  customerName: z.string(),
  customerEmail: z.string(),
  customerPhone: z.string(),
  shippingAddress: z.string(),
  totalAmount: z.number(),
  status: orderStatusSchema,
  orderDate: z.string(),
  hasBankSlip: z.boolean(),
  /** The slip's type as its bytes showed at upload (image/jpeg, image/png, application/pdf); null without a slip. */
  bankSlipType: z.string().nullable(),
  orderItems: z.array(
    z.object({
      productId: z.number().int().nullable(),
      productName: z.string(),
      /** The size ordered: its id (null once the size is removed) and its label, copied into the order. */
      sizeId: z.number().int().nullable(),
      sizeLabel: z.string(),
      quantity: z.number().int(),
      price: z.number(),
      subtotal: z.number(),
    }),
  ),
  statusHistory: z.array(z.object({ status: orderStatusSchema, changedAt: z.string(), changedBy: z.string().nullable() })),
});
export type OrderView = z.infer<typeof orderSchema>;

/**
 * A line whose pairs a cancellation could not put back (additive to API.md, in the status call's answer): its size was
 * removed from the product since the order was placed (SIZE_REMOVED), or the product deleted (PRODUCT_DELETED).
 */
export const stockNotReturnedSchema = z.object({
  productId: z.number().int().nullable(),
  productName: z.string(),
  sizeLabel: z.string(),
  quantity: z.number().int(),
  reason: z.enum(["SIZE_REMOVED", "PRODUCT_DELETED"]),
});
export type StockNotReturned = z.infer<typeof stockNotReturnedSchema>;

/** PUT /api/orders/admin/{id}/status's answer: the order, and the lines the cancellation it made left out (else none). */
export const orderStatusChangeSchema = orderSchema.extend({ stockNotReturned: z.array(stockNotReturnedSchema) });
export type OrderStatusChange = z.infer<typeof orderStatusChangeSchema>;
