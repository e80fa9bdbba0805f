import { Link, useLoaderData } from "react-router";

import { OrderLines } from "~/components/OrderSummary";
import { StatusBadge } from "~/components/StatusBadge";
import { formatDateTime } from "~/lib/format";
import { listCustomerOrders } from "~/services/orders.server";
import { requireUserWhileReading } from "~/services/session.server";
import type { Route } from "./+types/orders";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { result } = await requireUserWhileReading(request, context, url, (userId) => listCustomerOrders(context.db, userId));
  return { orders: await result };
}

export default function MyOrdersPage() {
  const { orders } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-bold tracking-tight">My Orders</h1>
      {orders.length === 0 ? (
        <div className="mt-8 rounded-2xl border border-dashed border-slate-300 px-6 py-16 text-center dark:border-slate-700">
          <p className="text-lg font-semibold">You have no orders yet</p>
          <Link to="/" className="btn-primary mt-6">
            Start shopping
          </Link>
        </div>
      ) : (
        <ul className="mt-6 space-y-5">
          {orders.map((order) => (
            <li key={order.id} className="card p-5" data-testid="order">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div>
                  <h2 className="font-semibold">
                    <Link to={`/orders/${order.id}`} className="hover:underline">
                      Order #{order.id}
                    </Link>
                  </h2>
                  <p className="text-sm text-slate-600 dark:text-slate-400">Placed {formatDateTime(order.orderDate)}</p>
                </div>
                <StatusBadge status={order.status} />
              </div>
              <div className="mt-4">
                <OrderLines order={order} />
              </div>
              {/* Named by its order, as the page has one per order (the words shown start the name: WCAG 2.5.3). */}
              <Link to={`/orders/${order.id}`} className="btn-secondary mt-4" aria-label={`Details and history: Order #${order.id}`}>
                Details and history
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function meta() {
  return [{ title: "My Orders | Stride" }, { name: "robots", content: "noindex" }];
}
