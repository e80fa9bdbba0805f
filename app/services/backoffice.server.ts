import { and, asc, desc, eq, gte, inArray, lt, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";

import type { OrderFilters } from "~/lib/schemas/backoffice";
import { ADMIN_MAX_PAGE_SIZE } from "~/lib/schemas/backoffice";
import type { OrderView } from "~/lib/schemas/order";
import { publicColumns, type SessionUser } from "./auth.server";
import { type Db, type ReadPlan, readTogether, schema } from "./db.server";
import { centsToRupees, SHOP_UTC_OFFSET } from "~/lib/format";
import { COUNTRY_CODE, phoneForms } from "~/lib/phone";
import { wordPrefixQuery } from "~/lib/search-index";
import { nameWithSize } from "~/lib/sizes";
import { assembleOrderViews, orderHistoryOf, orderItemsOf, toOrderViews, type HistoryRow, type ItemRow, type OrderIds, type OrderRow } from "./orders.server";

// The back office's lists at scale (issue 16): a page of orders or users is read from an index (the ids first, from
// the index alone, then only the rows shown), and its total comes from the counts the triggers of migrations/0013
// keep, never from counting rows. A list those counts cannot total (a search, a date range) is counted only so far
// (see countUpTo). docs/query-plans.md has the query plans.

const { orders, users, orderCounts, userCounts, orderItems } = schema;

export interface ListPage<T> {
  items: T[];
  /** Exact when `totalExact`; otherwise a lower bound ("1,000+"): the list holds at least this many. */
  total: number;
  totalExact: boolean;
  hasMore: boolean;
  page: number;
  pageSize: number;
}

/** Counted at most this far (or ten pages past the one shown, if further): enough for the page links around it. */
const COUNT_FLOOR = 1_000;
export const countLimit = (page: number, pageSize: number) => Math.max(COUNT_FLOOR, (page + 10) * pageSize);

/**
 * A list's read cheap enough to start beside the admin check (requireAdminWhileReading): a page within the first
 * thousand rows of the list as it is kept. A deeper page walks its offset through an index, and a search or a date
 * range (`narrowed`) may walk thousands of entries to find and count its matches: only an admin may make the database
 * do either, so those reads wait for the check.
 */
export const cheapRead = (page: number, pageSize: number, narrowed: boolean) => !narrowed && page * Math.min(pageSize, ADMIN_MAX_PAGE_SIZE) <= COUNT_FLOOR;

/** A phone prefix needs this many digits: fewer ("07") would match nearly every Sri Lankan mobile number. */
export const PHONE_PREFIX_MIN_DIGITS = 4;
/** Digits that start a phone number written without its 0 (712 223...): fewer could as well be an order number. */
const NATIONAL_WITHOUT_ZERO_MIN_DIGITS = 7;

/** The first string above every string that starts with `prefix` (its last character, one code point up). */
function prefixEnd(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop()!.codePointAt(0)!;
  if (last >= 0x10ffff) return prefix + "\u{10FFFF}";
  // Past the surrogates: a lone one cannot be encoded in UTF-8.
  const next = last + 1 >= 0xd800 && last + 1 <= 0xdfff ? 0xe000 : last + 1;
  return chars.join("") + String.fromCodePoint(next);
}

/** `expression` starts with `prefix`, as a range an index on that expression answers (LIKE would not use it). */
const startsWith = (expression: SQL, prefix: string) => and(gte(expression, prefix), lt(expression, prefixEnd(prefix)));

// The indexed expressions, written as migrations/0013 writes them (SQLite matches an index's expression by its shape).
const orderEmailKey = sql`lower(${orders.customerEmail})`;
const orderPhoneKey = sql`replace(replace(replace(${orders.customerPhone}, ' ', ''), '-', ''), '+', '')`;
const userEmailKey = sql`${users.email}`; // stored lower-cased: its unique index serves the search
const userPhoneKey = sql`${users.phone}`; // stored as 10 digits

/**
 * The phone numbers q may start, as the index keeps them (digits only: spaces, dashes and + left out), in the national
 * and the international form (0771... and 94771...: a customer may have typed either); none when q is not a phone.
 */
function phonePrefixes(q: string): string[] {
  const digits = q.replace(/[\s+-]/g, "");
  if (!/^\d+$/.test(digits)) return [];
  // The minimum holds for each form: "9477" must not also search every number that starts "077".
  const forms = phoneForms(digits).filter((form) => form.length >= PHONE_PREFIX_MIN_DIGITS);
  // A number as written after "+94", without its 0 (71 222 3333); long enough not to be an order number's start too.
  const withoutTrunkZero = digits.length >= NATIONAL_WITHOUT_ZERO_MIN_DIGITS && !digits.startsWith("0") && !digits.startsWith(COUNTRY_CODE);
  return withoutTrunkZero ? [...forms, `0${digits}`, `${COUNTRY_CODE}${digits}`] : forms;
}

/** An order number as an admin types it: 1234 or #1234. */
function orderNumber(q: string): number | null {
  const match = q.match(/^#?(\d{1,15})$/);
  return match && Number(match[1]) > 0 ? Number(match[1]) : null;
}

/**
 * The rows whose name has a word starting with each word of q (app/lib/search-index.ts, wordPrefixQuery), from the
 * FTS5 index of names that migrations/0021 keeps (its rowid is the row's id); none when q has no word. SQLite reads
 * the index's matches into a list before it looks up any row: a count that stops at `limit` rows and has no other
 * condition (a status, dates) needs no more than `limit` of them (the count of "nimal" read 7,884 rows, now 3,002).
 */
function nameHasWords(id: SQLWrapper, index: "orders_fts" | "users_fts", q: string, limit?: number): SQL | undefined {
  const words = wordPrefixQuery(q);
  if (words === null) return undefined;
  const table = sql.identifier(index);
  return sql`${id} IN (SELECT rowid FROM ${table} WHERE ${table} MATCH ${words}${limit === undefined ? sql`` : sql` LIMIT ${limit}`})`;
}

/**
 * Orders matching q: the order number exactly, a word of the customer's name from its start for each word of q ("silva"
 * and "de sil" find "Amaya de Silva"; any case, diacritics aside), or the e-mail (ASCII case aside) or phone from its
 * start. Each alternative is read from an index (the primary key, orders_fts, a range of the e-mail's or the phone's),
 * so SQLite answers the OR from the indexes (a "MULTI-INDEX OR") and never reads the orders that do not match.
 */
function orderSearch(q: string, countLimit?: number): SQL {
  const number = orderNumber(q);
  // "#1234" is an order number and nothing else (the tokenizer would read it as the word 1234 of a name).
  const byNumberOnly = number !== null && q.startsWith("#");
  return or(
    number !== null ? eq(orders.id, number) : undefined,
    byNumberOnly ? undefined : nameHasWords(orders.id, "orders_fts", q, countLimit),
    startsWith(orderEmailKey, q.toLowerCase()),
    ...phonePrefixes(q).map((phone) => startsWith(orderPhoneKey, phone)),
  )!;
}

/** Sri Lanka keeps +05:30 all year: a day of the shop's calendar starts at this instant. */
const dayStart = (day: string) => Date.parse(`${day}T00:00:00${SHOP_UTC_OFFSET}`);
const nextDayStart = (day: string) => dayStart(day) + 24 * 60 * 60 * 1000;

/**
 * The filters as SQL. With q, the status and the dates are written with a unary + (`+status = ?`), which keeps SQLite
 * from answering them from their own index: D1 keeps no statistics, and without them SQLite prefers an equality on
 * status (every CANCELLED order read to find a name among them) to the search's narrower prefix ranges.
 */
function orderConditions({ status, q, from, to }: OrderFilters, countLimit?: number): SQL | undefined {
  const column = (name: SQL) => (q ? sql`+${name}` : name);
  return and(
    status ? sql`${column(sql`${orders.status}`)} = ${status}` : undefined,
    from ? sql`${column(sql`${orders.createdAt}`)} >= ${dayStart(from)}` : undefined,
    to ? sql`${column(sql`${orders.createdAt}`)} < ${nextDayStart(to)}` : undefined,
    // A count of q alone needs no more than its limit of each alternative's matches (nameHasWords).
    q ? orderSearch(q, status || from || to ? undefined : countLimit) : undefined,
  );
}

const NEWEST_FIRST = [desc(orders.createdAt), desc(orders.id)];

/**
 * At most `limit` + 1 of the rows `matching` selects counted: exact below the limit, "more than" at it. `matching`
 * selects what an index that answers its WHERE holds (a constant, an id), so that index answers it alone.
 */
export function countUpTo(db: Db, matching: SQLiteSelect, limit: number) {
  return db.select({ total: sql<number>`count(*)` }).from(matching.limit(limit + 1).as("matching"));
}

/** A list's page with its total: the count as far as countUpTo went, or (`exact`) a kept count. */
export function pageOf<T>(items: T[], counted: number, exact: boolean, limit: number, page: number, pageSize: number): ListPage<T> {
  const totalExact = exact || counted <= limit;
  const total = totalExact ? counted : limit;
  return { items, total, totalExact, hasMore: page * pageSize < counted, page, pageSize };
}

/** What a page of orders reads for its ids (a subquery of the page's ids, or the ids a search found). */
type OrderPageShape<Item> = (db: Db, ids: OrderIds) => ReadPlan<Item[]>;

const orderRowsOf = (db: Db, ids: OrderIds) => db.select().from(orders).where(inArray(orders.id, ids)).orderBy(...NEWEST_FIRST);

/** Whole orders, with their lines and history, as the API answers them. */
export const ORDER_VIEWS: OrderPageShape<OrderView> = (db, ids) => ({
  statements: [orderRowsOf(db, ids), orderItemsOf(db, ids), orderHistoryOf(db, ids)],
  assemble: ([rows, items, history]) => assembleOrderViews(rows as OrderRow[], items as ItemRow[], history as HistoryRow[]),
});

/** The lines of the orders named as a list or an export shows them: what, which size and how many. */
const lineItemsOf = (db: Db, ids: OrderIds) =>
  db
    .select({ orderId: orderItems.orderId, productName: orderItems.productName, sizeLabel: orderItems.sizeLabel, quantity: orderItems.quantity })
    .from(orderItems)
    .where(inArray(orderItems.orderId, ids))
    .orderBy(asc(orderItems.id));
type LineItem = Awaited<ReturnType<typeof lineItemsOf>>[number];

function itemsByOrder(items: LineItem[]): Map<number, LineItem[]> {
  const byOrder = new Map<number, LineItem[]>();
  for (const item of items) byOrder.set(item.orderId, [...(byOrder.get(item.orderId) ?? []), item]);
  return byOrder;
}

/** An order as the back office's list shows it, on one line: the order's own page (/admin/orders/{id}) has the rest. */
export interface OrderLine {
  id: number;
  orderDate: string;
  status: OrderView["status"];
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  totalAmount: number;
  hasBankSlip: boolean;
  bankSlipType: string | null;
  items: Array<{ productName: string; sizeLabel: string; quantity: number }>;
}

const lineColumns = {
  id: orders.id,
  createdAt: orders.createdAt,
  status: orders.status,
  customerName: orders.customerName,
  customerEmail: orders.customerEmail,
  customerPhone: orders.customerPhone,
  totalCents: orders.totalCents,
  hasBankSlip: sql<boolean>`${orders.bankSlipKey} IS NOT NULL`.mapWith(Boolean),
  bankSlipType: orders.bankSlipType,
};
const orderLinesOf = (db: Db, ids: OrderIds) => db.select(lineColumns).from(orders).where(inArray(orders.id, ids)).orderBy(...NEWEST_FIRST);

/** Orders as /admin/orders lists them (OrderLine): the columns and lines it shows, no address, prices or history. */
export const ORDER_LINES: OrderPageShape<OrderLine> = (db, ids) => ({
  statements: [orderLinesOf(db, ids), lineItemsOf(db, ids)],
  assemble: ([rows, items]) => {
    const byOrder = itemsByOrder(items as LineItem[]);
    return (rows as Awaited<ReturnType<typeof orderLinesOf>>).map(({ createdAt, totalCents, hasBankSlip, bankSlipType, ...row }) => ({
      ...row,
      orderDate: new Date(createdAt).toISOString(),
      totalAmount: centsToRupees(totalCents),
      hasBankSlip,
      bankSlipType: hasBankSlip ? bankSlipType : null,
      items: (byOrder.get(row.id) ?? []).map(({ productName, sizeLabel, quantity }) => ({ productName, sizeLabel, quantity })),
    }));
  },
});

/**
 * One page of orders, newest first, in the shape asked for. The page's ids come from the index its filters need:
 * (created_at) or (status, created_at) for a page of everything, of one status or of a date range, walked from the
 * newest, so the shape's statements and the count go in one batch (each statement selects the ids again: an
 * index-only walk of one page). A search collects its matches from the search indexes and sorts them, so its ids are
 * read once, first, and the rest by those ids. Without q or dates the total is the kept count.
 */
export async function listOrdersPage<Item>(db: Db, filters: OrderFilters, page: number, pageSize: number, shape: OrderPageShape<Item>): Promise<ListPage<Item>> {
  const size = Math.min(pageSize, ADMIN_MAX_PAGE_SIZE);
  const where = orderConditions(filters);
  const pageIds = db
    .select({ id: orders.id })
    .from(orders)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .limit(size)
    .offset((page - 1) * size);
  const countable = !filters.q && !filters.from && !filters.to;
  const limit = countLimit(page, size);
  const count = countable
    ? db.select({ total: orderCounts.orderCount }).from(orderCounts).where(eq(orderCounts.status, filters.status ?? ""))
    : countUpTo(db, db.select({ one: sql`1` }).from(orders).where(orderConditions(filters, limit + 1)).$dynamic(), limit);
  if (filters.q) {
    const matches: ReadPlan<[Array<{ id: number }>, Array<{ total: number }>]> = { statements: [pageIds, count], assemble: (results) => results as never };
    const {
      matches: [found, [counted]],
    } = await readTogether(db, { matches });
    const ids = found.map((row) => row.id);
    if (!ids.length) return pageOf([], counted?.total ?? 0, false, limit, page, size);
    const { items } = await readTogether(db, { items: shape(db, ids) });
    return pageOf(items, counted?.total ?? 0, false, limit, page, size);
  }
  const total: ReadPlan<number> = { statements: [count], assemble: ([rows]) => (rows as Array<{ total: number }>)[0]?.total ?? 0 };
  const { items, counted } = await readTogether(db, { items: shape(db, pageIds), counted: total });
  return pageOf(items, counted, countable, limit, page, size);
}

/** Every order of the filters, newest first (the API without page: API.md's answer). */
export async function listAllOrdersMatching(db: Db, filters: OrderFilters): Promise<OrderView[]> {
  return toOrderViews(db, await db.select().from(orders).where(orderConditions(filters)).orderBy(...NEWEST_FIRST));
}

/** Where the next chunk of an export starts: just past the last order written (newest first). */
interface Cursor {
  createdAt: number;
  id: number;
}

export const EXPORT_CHUNK = 200;

/**
 * The filtered orders, newest first, a chunk at a time: each chunk starts where the last one ended (the position in
 * the index, not an OFFSET that would walk every order before it again), so an export of 100,000 orders holds a chunk
 * (200) in memory at once and reads each one once.
 */
export async function* ordersForExport(db: Db, filters: OrderFilters, chunk = EXPORT_CHUNK): AsyncGenerator<Array<OrderRow & { lines: string }>> {
  const where = orderConditions(filters);
  let cursor: Cursor | null = null;
  for (;;) {
    const after: SQL | undefined = cursor
      ? or(lt(orders.createdAt, cursor.createdAt), and(eq(orders.createdAt, cursor.createdAt), lt(orders.id, cursor.id)))
      : undefined;
    const ids: SQLWrapper = db
      .select({ id: orders.id })
      .from(orders)
      .where(and(where, after))
      .orderBy(...NEWEST_FIRST)
      .limit(chunk);
    const [rows, items] = await db.batch([orderRowsOf(db, ids), lineItemsOf(db, ids)]);
    if (!rows.length) return;
    const byOrder = itemsByOrder(items);
    const lines = (id: number) => (byOrder.get(id) ?? []).map((item) => `${item.quantity} × ${nameWithSize(item.productName, item.sizeLabel)}`).join("; ");
    yield rows.map((row) => ({ ...row, lines: lines(row.id) }));
    if (rows.length < chunk) return;
    const last = rows[rows.length - 1];
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

// ------------------------------------------------------------------------------------------------ users

/**
 * Users matching q: a word of the name from its start for each word of q (users_fts, as orders' names), or the e-mail
 * (stored lower-cased) or the phone from its start.
 */
function userSearch(q: string, countLimit?: number): SQL {
  // Stored in the national form: a number searched as +94 77 ... finds it as 077 ...
  const phones = phonePrefixes(q).filter((phone) => !phone.startsWith(COUNTRY_CODE));
  return or(nameHasWords(users.id, "users_fts", q, countLimit), startsWith(userEmailKey, q.toLowerCase()), ...phones.map((phone) => startsWith(userPhoneKey, phone)))!;
}

/**
 * Users in the order they joined (as GET /api/auth/admin/users has always listed them), a page at a time, as a plan
 * (readTogether): the page and its total in one batch.
 */
export function usersPagePlan(db: Db, filters: { q?: string }, page: number, pageSize: number): ReadPlan<ListPage<SessionUser>> {
  const size = Math.min(pageSize, ADMIN_MAX_PAGE_SIZE);
  const where = filters.q ? userSearch(filters.q) : undefined;
  const limit = countLimit(page, size);
  const count = filters.q ? countUpTo(db, db.select({ one: sql`1` }).from(users).where(userSearch(filters.q, limit + 1)).$dynamic(), limit) : db.select({ total: userCounts.userCount }).from(userCounts).where(eq(userCounts.role, ""));
  const rows = db
    .select(publicColumns)
    .from(users)
    .where(where)
    .orderBy(asc(users.id))
    .limit(size)
    .offset((page - 1) * size);
  return {
    statements: [rows, count],
    assemble: ([found, counted]) => pageOf(found as SessionUser[], (counted as Array<{ total: number }>)[0]?.total ?? 0, !filters.q, limit, page, size),
  };
}

export async function listUsersPage(db: Db, filters: { q?: string }, page: number, pageSize: number): Promise<ListPage<SessionUser>> {
  return (await readTogether(db, { list: usersPagePlan(db, filters, page, pageSize) })).list;
}

/** Every user matching q, in the order they joined (the API without page). */
export async function listAllUsersMatching(db: Db, q: string | undefined): Promise<SessionUser[]> {
  return db.select(publicColumns).from(users).where(q ? userSearch(q) : undefined).orderBy(asc(users.id));
}

/** Admins and customers, from the kept counts: the users page's summary line (a plan, to share the page's batch). */
export function userRoleCountsPlan(db: Db): ReadPlan<{ total: number; admins: number }> {
  return {
    statements: [db.select().from(userCounts)],
    assemble: ([rows]) => {
      const count = (role: string) => (rows as Array<typeof userCounts.$inferSelect>).find((row) => row.role === role)?.userCount ?? 0;
      return { total: count(""), admins: count("ROLE_ADMIN") };
    },
  };
}
