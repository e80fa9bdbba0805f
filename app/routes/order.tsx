import { data, Link, useLoaderData, useSearchParams } from "react-router";

import { NotFoundPage } from "~/components/ErrorPage";
import { FormAlert } from "~/components/Field";
import { OrderHistory, OrderItemsCard } from "~/components/OrderSummary";
import { StatusBadge } from "~/components/StatusBadge";
import { formatDateTime } from "~/lib/format";
import { groupedPhone } from "~/lib/phone";
import { HttpError, parseId } from "~/lib/http";
import { orderFor, readOrder } from "~/services/orders.server";
import { requireUser, requireUserWhileReading } from "~/services/session.server";
import type { Route } from "./+types/order";

export async function loader({ request, params, context, url }: Route.LoaderArgs) {
  const id = parseId(params.id);
  if (id === null) {
    // As for any order: a visitor logs in first, then finds there is no such order.
    await requireUser(request, context, url);
    throw data(null, { status: 404 });
  }
  const { user, result } = await requireUserWhileReading(request, context, url, () => readOrder(context.db, id));
  try {
    return { order: orderFor(await result, user) };
  } catch (error) {
    // Someone else's order looks exactly like a missing one.
    if (error instanceof HttpError && (error.status === 404 || error.status === 403)) throw data(null, { status: 404 });
    throw error;
  }
}

export default function OrderPage() {
  const { order } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <Link to="/orders" className="-mt-3 flex min-h-11 w-fit items-center text-sm text-slate-600 hover:underline dark:text-slate-400">
        ← My Orders
      </Link>
      {searchParams.has("placed") && (
        <div className="mt-4">
          <FormAlert tone="success">Thank you! Your order is placed and pending payment verification.</FormAlert>
        </div>
      )}
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Order #{order.id}</h1>
        <StatusBadge status={order.status} />
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">Placed {formatDateTime(order.orderDate)}</p>
      {/* Side by side from lg, as the admin's order page: from md the fixed side column left the items' names three or
          four lines tall. Between, the delivery and the history share a row under the items. */}
      <div className="mt-6 grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_280px]">
        <OrderItemsCard order={order} />
        <div className="grid items-start gap-6 md:grid-cols-2 lg:grid-cols-1">
          <section className="card p-5 text-sm" aria-labelledby="delivery-heading">
            <h2 id="delivery-heading" className="font-semibold">
              Delivery
            </h2>
            <p className="mt-2">{order.customerName}</p>
            <p>{groupedPhone(order.customerPhone)}</p>
            <p>{order.customerEmail}</p>
            <p className="mt-2 whitespace-pre-line">{order.shippingAddress}</p>
            {order.hasBankSlip && (
              <a href={`/api/orders/${order.id}/bank-slip`} target="_blank" rel="noreferrer" className="btn-secondary mt-4">
                View bank slip
              </a>
            )}
          </section>
          <section className="card p-5" aria-labelledby="history-heading">
            <h2 id="history-heading" className="font-semibold">
              Status history
            </h2>
            <div className="mt-3">
              <OrderHistory order={order} />
            </div>
          </section>
        </div>
      </div>
    </div>
  );
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `Order #${data.order.id} | Stride` : "Order | Stride" }, { name: "robots", content: "noindex" }];
}

export function ErrorBoundary() {
  return <NotFoundPage />;
}
