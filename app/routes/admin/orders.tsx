import { useRef } from "react";
import { Form, Link, useActionData, useLoaderData, useLocation, useSubmit } from "react-router";

import { orderStatusAction } from "~/lib/order-status-form.server";

import { AppLink } from "~/components/AppLink";
import { BankSlipViewer, SLIP_FAILED } from "~/components/BankSlipViewer";
import { FormAlert, IgnoredFilters } from "~/components/Field";
import { Modal } from "~/components/Modal";
import { useFieldsFromUrl } from "~/components/useFieldsFromUrl";
import { useMenu } from "~/components/useMenu";
import { OrderHistory, SizeNote } from "~/components/OrderSummary";
import { OrderStatusForm, orderStatusClientAction, revalidateAfterStatusForm, type OrderStatusResult } from "~/components/OrderStatusForm";
import { StatusBadge } from "~/components/StatusBadge";
import { EmptyList, ListPagination } from "~/components/Pagination";
import { ADMIN_SEARCH_MAX, type OrderStatus } from "~/lib/constants";
import { filterPillClass } from "~/lib/filter-pill";
import { orderPageHref } from "~/lib/orders-list";
import { formatDateTime, formatLkr } from "~/lib/format";
import { HttpError, parseId } from "~/lib/http";
import { readOrderListSearch, type OrderFilters } from "~/lib/schemas/backoffice";
import type { OrderView } from "~/lib/schemas/order";
import { groupedPhone } from "~/lib/phone";
import { nameWithSize } from "~/lib/sizes";
import { cheapRead, listOrdersPage, ORDER_LINES, type ListPage, type OrderLine } from "~/services/backoffice.server";
import { getOrder } from "~/services/orders.server";
import { requireAdminWhileReading } from "~/services/session.server";
import type { Route } from "./+types/orders";

// The filter buttons of SPEC §2, as the SPEC has them. DELIVERED and CANCELLED (issue 16: every status can be listed)
// live in the "More" control beside them.
const FILTERS = ["ALL", "PENDING", "CONFIRMED", "PROCESSING", "SHIPPED"] as const;
const MORE_FILTERS = ["DELIVERED", "CANCELLED"] as const satisfies readonly OrderStatus[];

const FETCH_FAILED = "Failed to fetch orders";

type Lookup<Order> = { id: number; order: Order | null; failed: boolean } | null;

/**
 * The order a modal shows: from the list when it is there (the slip viewer), else read on its own (the Manage dialog,
 * which shows the lines and history the list leaves out; or an order filtered out, or gone).
 */
async function lookUp<Order extends { id: number }>(id: number | null, list: Order[] | null, read: (id: number) => Promise<Order>): Promise<Lookup<Order>> {
  if (id === null) return null;
  const listed = list?.find((order) => order.id === id);
  if (listed) return { id, order: listed, failed: false };
  try {
    return { id, order: await read(id), failed: false };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return { id, order: null, failed: false };
    console.error(`Admin orders: reading order ${id} failed`, error);
    return { id, order: null, failed: true };
  }
}

export async function loader({ request, context, url }: Route.LoaderArgs) {
  // A bad parameter is dropped (and named on the page), never a failure: see readOrderListSearch.
  const { filters, page, pageSize, dropped } = readOrderListSearch(url.searchParams);
  // One line an order: the Manage dialog reads its order (with prices and history) on its own.
  const readList = () => listOrdersPage(context.db, filters, page, pageSize, ORDER_LINES);
  const { admin, result } = await requireAdminWhileReading(request, context, url, readList, cheapRead(page, pageSize, Boolean(filters.q || filters.from || filters.to)));
  let list: ListPage<OrderLine> | null = null;
  try {
    list = await result;
  } catch (error) {
    console.error("Admin orders: listing the orders failed", error);
  }
  const orders = list?.items ?? null;
  const read = (id: number) => getOrder(context.db, id, admin);
  const [manage, slip] = await Promise.all([lookUp(parseId(url.searchParams.get("manage")), null, read), lookUp<SlipOrder>(parseId(url.searchParams.get("slip")), orders, read)]);
  return {
    filters,
    status: filters.status ?? null,
    paging: list ? { page: list.page, pageSize: list.pageSize, total: list.total, totalExact: list.totalExact, hasMore: list.hasMore } : null,
    dropped,
    orders: orders ?? [],
    error: orders ? null : FETCH_FAILED,
    manage,
    slip,
  };
}

export const clientAction = ({ request, serverAction }: Route.ClientActionArgs) => orderStatusClientAction(request, serverAction);

export const action = ({ request, context, url }: Route.ActionArgs) => orderStatusAction(request, context, url);

export const shouldRevalidate = revalidateAfterStatusForm;

/** The list's URL (the filter kept) with one modal open, or none. */
function useListHref() {
  const location = useLocation();
  return (modal?: { manage?: number; slip?: number }) => {
    const params = new URLSearchParams(location.search);
    params.delete("manage");
    params.delete("slip");
    if (modal?.manage) params.set("manage", String(modal.manage));
    if (modal?.slip) params.set("slip", String(modal.slip));
    const search = params.toString();
    return `${location.pathname}${search ? `?${search}` : ""}`;
  };
}

/** The list's query for these filters (no page: a new filter starts on the first page). */
function filterSearch(filters: OrderFilters, status: OrderStatus | null): string {
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (filters.q) params.set("q", filters.q);
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  return params.toString();
}

/**
 * The statuses beyond the pills, in a disclosure (it opens without JavaScript). With it, useMenu closes it on Escape
 * (the focus back on its toggle), when the focus leaves it, on a click elsewhere and once a status is chosen. On a
 * phone its menu hangs from the right edge of the row of filters (wherever the pill wrapped to), so it never runs off
 * the screen; from sm on, from the pill itself.
 */
function MoreStatuses({ active, moreActive, href }: { active: OrderStatus | null; moreActive: OrderStatus | undefined; href: (status: OrderStatus | null) => string }) {
  const menu = useMenu();
  return (
    <details ref={menu} className="group sm:relative">
      <summary className={filterPillClass(Boolean(moreActive), "cursor-pointer list-none gap-1 [&::-webkit-details-marker]:hidden")}>
        {moreActive ?? "More"}
        <span aria-hidden="true" className="text-xs transition-transform group-open:rotate-180">
          ▾
        </span>
        <span className="sr-only"> statuses</span>
      </summary>
      <ul className="card absolute right-0 z-20 mt-2 w-48 p-1 sm:left-0 sm:right-auto" aria-label="More statuses">
        {MORE_FILTERS.map((status) => (
          <li key={status}>
            <AppLink
              to={href(status)}
              aria-current={active === status ? "page" : undefined}
              keepScroll
              className={`flex min-h-11 items-center rounded-lg px-3 text-sm font-semibold ${
                active === status ? "bg-brand-50 text-brand-800 dark:bg-brand-400/15 dark:text-brand-200" : "hover:bg-slate-100 dark:hover:bg-slate-800"
              }`}
            >
              {status}
            </AppLink>
          </li>
        ))}
      </ul>
    </details>
  );
}

function FilterBar({ active, filters }: { active: OrderStatus | null; filters: OrderFilters }) {
  const href = (status: OrderStatus | null) => {
    const search = filterSearch(filters, status);
    return search ? `/admin/orders?${search}` : "/admin/orders";
  };
  const moreActive = MORE_FILTERS.find((status) => status === active);
  return (
    <nav aria-label="Filter orders by status" className="relative mt-6">
      <ul className="flex flex-wrap gap-2">
        {FILTERS.map((filter) => {
          const current = filter === "ALL" ? active === null : active === filter;
          return (
            <li key={filter}>
              <AppLink to={href(filter === "ALL" ? null : filter)} aria-current={current ? "page" : undefined} keepScroll className={filterPillClass(current)}>
                {filter}
              </AppLink>
            </li>
          );
        })}
        <li>
          <MoreStatuses active={active} moreActive={moreActive} href={href} />
        </li>
      </ul>
    </nav>
  );
}

/** Search (order number, name, e-mail, phone) and a date range: a GET form, so the URL holds them and it works without JavaScript. */
function SearchForm({ filters, status }: { filters: OrderFilters; status: OrderStatus | null }) {
  const filtered = Boolean(filters.q || filters.from || filters.to);
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  useFieldsFromUrl(form, { q: filters.q, from: filters.from, to: filters.to });
  // With JavaScript, the fields left blank stay out of the URL (without it they come as "from=&to=", read as none).
  function submitFilled(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(event.currentTarget)) if (typeof value === "string" && value.trim()) params.set(key, value.trim());
    submit(params, { method: "get", action: "/admin/orders" });
  }
  return (
    <Form ref={form} method="get" action="/admin/orders" onSubmit={submitFilled} role="search" aria-label="Search orders" className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto]">
      {status && <input type="hidden" name="status" value={status} />}
      <div className="col-span-2 lg:col-span-1">
        <label htmlFor="orders-q" className="field-label">
          Search
        </label>
        <input id="orders-q" name="q" type="search" defaultValue={filters.q ?? ""} maxLength={ADMIN_SEARCH_MAX} placeholder="Order #, name, e-mail or phone" className="field-input" />
      </div>
      <div>
        <label htmlFor="orders-from" className="field-label">
          From
        </label>
        <input id="orders-from" name="from" type="date" defaultValue={filters.from ?? ""} className="field-input" />
      </div>
      <div>
        <label htmlFor="orders-to" className="field-label">
          To
        </label>
        <input id="orders-to" name="to" type="date" defaultValue={filters.to ?? ""} className="field-input" />
      </div>
      <div className="col-span-2 flex items-end gap-2 lg:col-span-1">
        <button type="submit" className="btn-primary flex-1 lg:flex-none">
          Search
        </button>
        {filtered && (
          <Link to={status ? `/admin/orders?status=${status}` : "/admin/orders"} className="btn-secondary flex-1 lg:flex-none">
            Clear
          </Link>
        )}
      </div>
    </Form>
  );
}

/** An order's lines as a compact list (name × quantity, subtotal) and its total. */
function ItemList({ order }: { order: OrderView }) {
  return (
    <>
      <ul className="mt-1 divide-y divide-slate-100 dark:divide-slate-800">
        {order.orderItems.map((item, index) => (
          <li key={index} className="flex justify-between gap-3 py-1.5">
            <span className="min-w-0">
              {item.productName} <span className="whitespace-nowrap text-slate-500 dark:text-slate-400">× {item.quantity}</span>
              <SizeNote label={item.sizeLabel} />
            </span>
            <span className="shrink-0 whitespace-nowrap tabular-nums">{formatLkr(item.subtotal)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-2 flex justify-between gap-3 border-t border-slate-200 pt-2 font-bold dark:border-slate-700">
        <span>Total</span>
        <span className="whitespace-nowrap tabular-nums" data-testid="order-total">
          {formatLkr(order.totalAmount)}
        </span>
      </p>
    </>
  );
}

/** What an order holds, on one line: "Trail Runner (EU 42) × 2, Leather Belt × 1". */
function itemsSummary(items: OrderLine["items"]): string {
  return items.map((item) => `${nameWithSize(item.productName, item.sizeLabel)} × ${item.quantity}`).join(", ");
}

/** An order on one line of the list: who, what, how much and where it stands, with what the admin does next. */
function OrderLineItem({ order, href, listSearch }: { order: OrderLine; href: ReturnType<typeof useListHref>; listSearch: string }) {
  const headingId = `order-${order.id}-heading`;
  const items = itemsSummary(order.items);
  return (
    <li
      // A card below xl; from xl a row of five columns (at 1024 six of them left the e-mail no width at all).
      className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-5 xl:grid-cols-[10.5rem_minmax(0,1.2fr)_minmax(0,1fr)_auto_auto]"
      data-testid="admin-order"
      data-order-id={order.id}
      data-status={order.status}
      aria-labelledby={headingId}
    >
      <div className="min-w-0">
        <h2 id={headingId} className="font-semibold">
          Order #{order.id}
        </h2>
        <time dateTime={order.orderDate} className="block text-xs text-slate-600 dark:text-slate-400">
          {formatDateTime(order.orderDate)}
        </time>
      </div>
      <p className="col-span-2 min-w-0 text-sm xl:col-span-1" title={`${order.customerName}, ${order.customerEmail}, ${order.customerPhone}`}>
        <span className="block truncate font-medium">{order.customerName}</span>
        {/* The phone first, whole (an admin calls it); a long e-mail gives way. In the row's own column (xl) the e-mail
            has a line of its own: beside the phone it was left no width at all. */}
        <span className="flex gap-1 text-slate-600 xl:block dark:text-slate-400">
          {/* As the CSV writes it: one reading of a Sri Lankan number however it was typed (077 123 4567). */}
          <span className="whitespace-nowrap xl:block">{groupedPhone(order.customerPhone)}</span>
          <span aria-hidden="true" className="xl:hidden">
            ·
          </span>
          <span className="min-w-0 truncate xl:block">{order.customerEmail}</span>
        </span>
      </p>
      {/* In the row's own column (xl), three lines, as many as the customer's beside it. */}
      <p className="col-span-2 line-clamp-2 min-w-0 text-sm xl:col-span-1 xl:line-clamp-3" title={items}>
        <span className="sr-only">Items: </span>
        {items}
      </p>
      {/* The status: beside the order's number in a card; in a row (xl), under the total, which leaves the customer and
          the items the width a column of its own took. */}
      <div className="contents xl:flex xl:flex-col xl:items-end xl:gap-1">
        <p className="text-sm font-semibold tabular-nums whitespace-nowrap" data-testid="order-total">
          {formatLkr(order.totalAmount)}
        </p>
        <span className="col-start-2 row-start-1 justify-self-end">
          <StatusBadge status={order.status} />
        </span>
      </div>
      {/* Each name starts with the words its link shows (WCAG 2.5.3), then the order it is for. A phone's row of three
          buttons as wide as the card; from sm they sit beside the total, as wide as their words. */}
      <div className="col-span-2 grid grid-cols-3 gap-2 sm:col-span-1 sm:flex sm:justify-end">
        <AppLink to={href({ manage: order.id })} keepScroll className="btn-primary px-3" aria-label={`Manage order #${order.id}`}>
          Manage
        </AppLink>
        {order.hasBankSlip ? (
          <AppLink to={href({ slip: order.id })} keepScroll className="btn-secondary px-3" aria-label={`View Slip of order #${order.id}`}>
            View Slip
          </AppLink>
        ) : (
          <span className="inline-flex min-h-11 items-center justify-center px-1 text-xs text-slate-500 dark:text-slate-400">No bank slip</span>
        )}
        {/* Carries the list's filters and page, for the order page's "← Orders". */}
        <AppLink to={orderPageHref(order.id, listSearch)} className="btn-secondary px-3" aria-label={`Details of order #${order.id}`}>
          Details
        </AppLink>
      </div>
    </li>
  );
}

function ManageModal({
  order,
  closeTo,
  selfHref,
  slipHref,
  noJsResult,
}: {
  order: OrderView;
  closeTo: string;
  selfHref: string;
  slipHref: string;
  noJsResult: OrderStatusResult | undefined;
}) {
  return (
    <Modal
      title={`Manage order #${order.id}`}
      description={
        <>
          {order.customerName} · <span className="whitespace-nowrap">{formatLkr(order.totalAmount)}</span> · <span className="whitespace-nowrap">placed {formatDateTime(order.orderDate)}</span>
        </>
      }
      closeTo={closeTo}
      closeLabel="Close order"
      testId="manage-modal"
    >
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="text-slate-600 dark:text-slate-400">Current status</span>
        <span data-testid="manage-current-status">
          <StatusBadge status={order.status} />
        </span>
        {order.hasBankSlip && (
          <Link to={slipHref} replace preventScrollReset className="ml-auto inline-flex min-h-11 items-center font-semibold text-brand-700 hover:underline dark:text-brand-300">
            View bank slip
          </Link>
        )}
      </div>

      <OrderStatusForm order={order} keepHref={selfHref} noJsResult={noJsResult} autoFocus />

      <div className="mt-6 grid gap-6 md:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)]">
        <section aria-labelledby={`manage-items-${order.id}`}>
          <h3 id={`manage-items-${order.id}`} className="text-sm font-semibold">
            Items
          </h3>
          <div className="text-sm">
            <ItemList order={order} />
          </div>
        </section>
        <section aria-labelledby={`manage-history-${order.id}`} data-testid="status-history">
          <h3 id={`manage-history-${order.id}`} className="text-sm font-semibold">
            Status history
          </h3>
          <div className="mt-3">
            <OrderHistory order={order} />
          </div>
        </section>
      </div>
    </Modal>
  );
}

/** What the slip viewer needs of an order: a line of the list has it. */
type SlipOrder = Pick<OrderLine, "id" | "customerName" | "totalAmount" | "hasBankSlip" | "bankSlipType">;

function SlipModal({ lookup, closeTo, manageHref }: { lookup: NonNullable<Lookup<SlipOrder>>; closeTo: string; manageHref: string }) {
  const { order } = lookup;
  const src = `/api/orders/${lookup.id}/bank-slip`;
  return (
    <Modal
      title={`Bank slip · Order #${lookup.id}`}
      description={
        order ? (
          <>
            {order.customerName} · <span className="whitespace-nowrap">{formatLkr(order.totalAmount)}</span>
          </>
        ) : undefined
      }
      closeTo={closeTo}
      closeLabel="Close bank slip"
      size="xl"
      testId="slip-modal"
    >
      {lookup.failed ? (
        <FormAlert>{SLIP_FAILED}</FormAlert>
      ) : !order ? (
        <FormAlert>Order #{lookup.id} was not found.</FormAlert>
      ) : !order.hasBankSlip ? (
        <FormAlert>{`${SLIP_FAILED}: this order has no bank slip.`}</FormAlert>
      ) : (
        <BankSlipViewer orderId={order.id} type={order.bankSlipType} />
      )}
      <div className="mt-5 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {order && (
          <Link to={manageHref} replace preventScrollReset className="btn-secondary">
            Manage order
          </Link>
        )}
        {order?.hasBankSlip && (
          <a href={src} target="_blank" rel="noopener" className="btn-primary">
            Open in a new tab
            <span className="sr-only"> (opens the slip on its own)</span>
          </a>
        )}
      </div>
    </Modal>
  );
}

const count = new Intl.NumberFormat("en-US");

/** "1,234 orders", "1,000+ orders pending matching": the list's size as far as it was counted. */
function countLine(paging: { total: number; totalExact: boolean }, status: OrderStatus | null, filtered: boolean): string {
  const noun = paging.total === 1 && paging.totalExact ? "order" : "orders";
  return `${count.format(paging.total)}${paging.totalExact ? "" : "+"} ${noun}${status ? ` ${status.toLowerCase()}` : ""}${filtered ? " matching" : ""}`;
}

export default function AdminOrdersPage() {
  const { filters, status, paging, dropped, orders, error, manage, slip } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const href = useListHref();
  const closeTo = href();
  const filtered = Boolean(filters.q || filters.from || filters.to);
  const exportSearch = filterSearch(filters, status);
  const pageSearch = new URLSearchParams(location.search);
  pageSearch.delete("manage");
  pageSearch.delete("slip");
  return (
    <div className="back-office-page">
      <Link to="/admin/dashboard" className="inline-flex min-h-11 items-center text-sm text-slate-600 hover:underline dark:text-slate-400">
        ← Dashboard
      </Link>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Orders</h1>
        {paging && (
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="orders-count" role="status">
            {countLine(paging, status, filtered)}
          </p>
        )}
      </div>
      <FilterBar active={status} filters={filters} />
      <SearchForm filters={filters} status={status} />
      <div className="mt-3 flex justify-end">
        {/* A plain link: the file is a download, not a screen to route to. */}
        <a href={`/admin/orders.csv${exportSearch ? `?${exportSearch}` : ""}`} download className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
          Download CSV<span className="sr-only"> of these orders</span>
        </a>
      </div>
      <IgnoredFilters dropped={dropped} />

      {error ? (
        <div className="mt-6">
          <FormAlert>{error}</FormAlert>
        </div>
      ) : orders.length === 0 ? (
        <EmptyList paging={paging} noun="orders" search={pageSearch}>
          {filtered ? "No orders match this search" : status ? `No ${status.toLowerCase()} orders` : "No orders yet"}
        </EmptyList>
      ) : (
        <ul className="card mt-4 divide-y divide-slate-200 dark:divide-slate-800" aria-label="Orders, newest first">
          {orders.map((order) => (
            <OrderLineItem key={order.id} order={order} href={href} listSearch={location.search} />
          ))}
        </ul>
      )}
      {paging && <ListPagination paging={paging} search={pageSearch} />}

      {manage &&
        (manage.order ? (
          <ManageModal key={manage.id} order={manage.order} closeTo={closeTo} selfHref={href({ manage: manage.id })} slipHref={href({ slip: manage.id })} noJsResult={actionData} />
        ) : (
          <Modal title={`Manage order #${manage.id}`} closeTo={closeTo} closeLabel="Close order" testId="manage-modal">
            <FormAlert>{manage.failed ? FETCH_FAILED : `Order #${manage.id} was not found.`}</FormAlert>
          </Modal>
        ))}
      {slip && !manage && <SlipModal key={slip.id} lookup={slip} closeTo={closeTo} manageHref={href({ manage: slip.id })} />}
    </div>
  );
}

export function meta() {
  return [{ title: "Orders | Stride admin" }, { name: "robots", content: "noindex" }];
}

/**
 * Every error goes on to the app's (root.tsx), as it would without this; but with a boundary of its own the route's
 * failed action leaves the root's loader to run, so the app's error page, the refusal of a form posted without
 * JavaScript after another account logged in (adminFormRefusal) among them, has the shopper's theme and bar.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps): never {
  throw error;
}
