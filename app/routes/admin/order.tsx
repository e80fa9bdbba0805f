import { data, isRouteErrorResponse, Link, useActionData, useLoaderData, useParams } from "react-router";

import { BankSlipViewer } from "~/components/BankSlipViewer";
import { OrderEmails } from "~/components/OrderEmails";
import { OrderCustomer, OrderHistory, OrderItemsCard } from "~/components/OrderSummary";
import { OrderStatusForm, orderStatusClientAction, revalidateAfterStatusForm } from "~/components/OrderStatusForm";
import { ErrorPage } from "~/components/ErrorPage";
import { StatusBadge } from "~/components/StatusBadge";
import { formatDateTime, formatLkr } from "~/lib/format";
import { HttpError, parseId } from "~/lib/http";
import { ORDERS_LIST, orderPageHref, ordersListHref } from "~/lib/orders-list";
import { orderStatusAction } from "~/lib/order-status-form.server";
import { getOrder } from "~/services/orders.server";
import { listOrderMails } from "~/services/outbox.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/order";

// /admin/orders/{id}: one order on its own page (issue 16): its lines with sizes, the customer, the bank slip, the
// status history and the e-mails sent about it, and the status form the orders screen's Manage dialog has.

export async function loader({ request, params, context, url }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context, url);
  // The list this page was opened from (its filters and page), for "← Orders": only ever /admin/orders (orders-list.ts).
  const listHref = ordersListHref(url.searchParams.get("back"));
  // Not found: the admin's own page for it, with the way back to that list (ErrorBoundary below).
  const notFound = () => data({ listHref }, { status: 404 });
  const id = parseId(params.id);
  if (id === null) throw notFound();
  try {
    const [order, emails] = await Promise.all([getOrder(context.db, id, admin), listOrderMails(context.db, id)]);
    // The page's own address with the checked list (where the no-JavaScript "Keep order" comes back to).
    const selfHref = orderPageHref(id, new URL(listHref, url).search);
    return { order, emails, listHref, selfHref };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw notFound();
    throw error;
  }
}

export const clientAction = ({ request, serverAction }: Route.ClientActionArgs) => orderStatusClientAction(request, serverAction);

export const action = ({ request, context, url }: Route.ActionArgs) => orderStatusAction(request, context, url);

export const shouldRevalidate = revalidateAfterStatusForm;

export default function AdminOrderPage() {
  const { order, emails, listHref, selfHref } = useLoaderData<typeof loader>();
  const noJsResult = useActionData<typeof action>();
  const slipSrc = `/api/orders/${order.id}/bank-slip`;
  return (
    <div className="back-office-page">
      <BackToOrders to={listHref} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Order #{order.id}</h1>
        <span data-testid="order-status">
          <StatusBadge status={order.status} />
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Placed <time dateTime={order.orderDate}>{formatDateTime(order.orderDate)}</time> · <span className="whitespace-nowrap">{formatLkr(order.totalAmount)}</span>
      </p>

      <div className="mt-6 grid items-start gap-6 lg:grid-cols-[minmax(0,1.5fr)_minmax(0,1fr)]">
        <div className="space-y-6">
          <section className="card p-5" aria-labelledby="order-status-heading" data-testid="order-status-form">
            <h2 id="order-status-heading" className="font-semibold">
              Change status
            </h2>
            <OrderStatusForm order={order} keepHref={selfHref} noJsResult={noJsResult} />
          </section>
          <OrderItemsCard order={order} />
          <section className="card p-5" aria-labelledby="order-slip-heading" data-testid="order-slip">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="order-slip-heading" className="font-semibold">
                Bank slip
              </h2>
              {order.hasBankSlip && (
                <a href={slipSrc} target="_blank" rel="noopener" className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
                  Open in a new tab<span className="sr-only"> (the bank slip of order #{order.id})</span>
                </a>
              )}
            </div>
            <div className="mt-3">
              {order.hasBankSlip ? <BankSlipViewer orderId={order.id} type={order.bankSlipType} /> : <p className="text-sm text-slate-600 dark:text-slate-400">No bank slip</p>}
            </div>
          </section>
        </div>
        <div className="space-y-6">
          <section className="card p-5 text-sm" aria-labelledby="order-customer-heading" data-testid="order-customer">
            <h2 id="order-customer-heading" className="text-base font-semibold">
              Customer
            </h2>
            <OrderCustomer order={order} />
          </section>
          <section className="card p-5" aria-labelledby="order-history-heading" data-testid="status-history">
            <h2 id="order-history-heading" className="font-semibold">
              Status history
            </h2>
            <div className="mt-3">
              <OrderHistory order={order} />
            </div>
          </section>
          <OrderEmails emails={emails} />
        </div>
      </div>
    </div>
  );
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Order #${loaderData.order.id} | Stride admin` : "Order | Stride admin" }, { name: "robots", content: "noindex" }];
}

/** "← Orders": back to the list the page was opened from. */
function BackToOrders({ to }: { to: string }) {
  return (
    <Link to={to} className="inline-flex min-h-11 items-center text-sm text-slate-600 hover:underline dark:text-slate-400">
      ← Orders
    </Link>
  );
}

/**
 * No such order (or a malformed id): a 404 that says which, with the way back to the orders list (the list it was
 * opened from), not the shop's "Back to the shop". Only an admin gets this far (the loader's requireAdmin).
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { id } = useParams();
  if (!isRouteErrorResponse(error) || error.status !== 404) throw error;
  const listHref = (error.data as { listHref?: string } | null)?.listHref ?? ORDERS_LIST;
  const shown = parseId(id);
  return (
    <ErrorPage
      status={404}
      title={shown === null ? "Order not found" : `Order #${shown} was not found`}
      message="There is no order with this number. It may have been mistyped."
      action={{ to: listHref, label: "Back to the orders" }}
    />
  );
}
