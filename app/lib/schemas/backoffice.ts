import { blankIsAbsent, plainText, z } from "../zod";

import { ADMIN_SEARCH_MAX, CATEGORIES, type Category, type OrderStatus } from "../constants";
import { orderStatusSchema } from "./order";

// The back office's lists (issue 16): /admin/orders, /admin/users and their API calls take the same parameters.
// The API refuses a bad one with 400; the screens drop it and say so (parseListSearch below), never a 500.

export const ADMIN_PAGE_SIZE = 20;
export const ADMIN_MAX_PAGE_SIZE = 100;

// Messages in an admin's words (the screens show them; the API's fieldErrors name the parameter beside them).
const positiveInt = (label: string, max = 1_000_000) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${label} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${label} must be at least 1`).max(max, `${label} must be at most ${max}`));

const searchParam = z.preprocess(
  (value) => (typeof value === "string" ? blankIsAbsent(value.trim()) : value),
  z
    .string()
    .max(ADMIN_SEARCH_MAX, `The search must be at most ${ADMIN_SEARCH_MAX} characters`)
    // D1 cuts a statement's text at a NUL; no order number, name, e-mail, phone or product holds control characters.
    .check(plainText("The search"))
    .optional(),
);

/** A calendar day, YYYY-MM-DD, that exists (no 2026-02-30). */
const dayParam = (label: string) =>
  z.preprocess(
    blankIsAbsent,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { message: `${label} must be a date (YYYY-MM-DD)`, abort: true })
      // Only for a value of the right shape (abort above): "26/11/2026" gets one message, not this one too.
      .refine((day) => {
        const date = new Date(`${day}T00:00:00Z`);
        return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
      }, `${label} is not a calendar date`)
      .optional(),
  );

const RANGE_REVERSED = "The end date must not be before the start date";

function rangeInOrder(query: { from?: string; to?: string }, ctx: z.RefinementCtx) {
  if (query.from && query.to && query.from > query.to) ctx.addIssue({ code: "custom", path: ["to"], message: RANGE_REVERSED });
}

const pagingFields = {
  page: positiveInt("The page").optional(),
  pageSize: positiveInt("The page size", ADMIN_MAX_PAGE_SIZE).optional(),
  q: searchParam,
};

/** GET /api/orders/admin/all and /admin/orders: status (any of the six), q, from and to (days, inclusive), page, pageSize. */
export const adminOrderListQuerySchema = z
  .object({ ...pagingFields, status: z.preprocess(blankIsAbsent, orderStatusSchema.optional()), from: dayParam("The start date"), to: dayParam("The end date") })
  .superRefine(rangeInOrder);
export type AdminOrderListQuery = z.infer<typeof adminOrderListQuerySchema>;

/** GET /api/auth/admin/users and /admin/users: q, page, pageSize. */
export const adminUserListQuerySchema = z.object(pagingFields);
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

/** /admin/stock: the low-stock sizes of one category (or all), q, page, pageSize. A screen only: no API call lists them. */
export const adminLowStockQuerySchema = z.object({
  ...pagingFields,
  category: z.preprocess(blankIsAbsent, z.enum(CATEGORIES, { error: "The category must be Gents, Ladies, Kids or Accessories" }).optional()),
});

export interface OrderFilters {
  status?: OrderStatus;
  q?: string;
  from?: string;
  to?: string;
}

export interface ListParams<F> {
  filters: F;
  page: number;
  pageSize: number;
  /** What the screen dropped from the URL, to tell the admin (empty when every parameter was good). */
  dropped: string[];
}

/**
 * The screens' reading of the URL: each good parameter is kept, each bad one dropped with its message (a bad page is
 * page 1, an unknown status is every order, dates the wrong way round are no range), so a hand-edited URL still shows
 * a list.
 */
export function parseListSearch<S extends z.ZodType>(schema: S, search: URLSearchParams): { values: Partial<z.output<S>>; dropped: string[] } {
  const raw: Record<string, string> = Object.fromEntries(search);
  const dropped: string[] = [];
  for (let attempt = 0; attempt < 8; attempt++) {
    const result = schema.safeParse(raw);
    if (result.success) return { values: result.data as Partial<z.output<S>>, dropped };
    for (const issue of result.error.issues) {
      const field = issue.path[0];
      // One message a field: the first says why it was dropped (a field's later checks only repeat it).
      if (typeof field === "string" && !(field in raw)) continue;
      dropped.push(issue.message);
      if (typeof field === "string") delete raw[field];
      // Dates the wrong way round are no range at all (keeping `from` alone would be a guess).
      if (issue.message === RANGE_REVERSED) delete raw.from;
    }
  }
  return { values: {}, dropped };
}

export function readOrderListSearch(search: URLSearchParams): ListParams<OrderFilters> {
  const { values, dropped } = parseListSearch(adminOrderListQuerySchema, search);
  return {
    filters: { status: values.status, q: values.q, from: values.from, to: values.to },
    page: values.page ?? 1,
    pageSize: values.pageSize ?? ADMIN_PAGE_SIZE,
    dropped,
  };
}

export function readUserListSearch(search: URLSearchParams): ListParams<{ q?: string }> {
  const { values, dropped } = parseListSearch(adminUserListQuerySchema, search);
  return { filters: { q: values.q }, page: values.page ?? 1, pageSize: values.pageSize ?? ADMIN_PAGE_SIZE, dropped };
}

export interface LowStockFilters {
  category?: Category;
  q?: string;
}

export function readLowStockSearch(search: URLSearchParams): ListParams<LowStockFilters> {
  const { values, dropped } = parseListSearch(adminLowStockQuerySchema, search);
  return { filters: { category: values.category, q: values.q }, page: values.page ?? 1, pageSize: values.pageSize ?? ADMIN_PAGE_SIZE, dropped };
}
