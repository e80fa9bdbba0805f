import { Link } from "react-router";

import { formatDateTime, formatLkr } from "~/lib/format";
import { groupedPhone } from "~/lib/phone";
import type { OrderView } from "~/lib/schemas/order";
import { ONE_SIZE } from "~/lib/sizes";
import { StatusBadge } from "./StatusBadge";

/** The size of a line, under its name; nothing for a one-size product. */
export function SizeNote({ label }: { label: string }) {
  if (label === ONE_SIZE) return null;
  return <span className="block text-xs text-slate-500 dark:text-slate-400">Size: {label}</span>;
}

/** An order's lines and total, as a customer and an admin both read them. */
export function OrderLines({ order }: { order: OrderView }) {
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">Items of order #{order.id}</caption>
      <thead className="text-left text-xs uppercase tracking-wider text-slate-500 dark:text-slate-400">
        <tr>
          <th scope="col" className="py-2 font-semibold">
            Item
          </th>
          <th scope="col" className="py-2 pl-3 text-right font-semibold">
            Qty
          </th>
          {/* A phone has room for three columns: the unit price is the subtotal's over the quantity. */}
          <th scope="col" className="hidden py-2 pl-3 text-right font-semibold sm:table-cell">
            Price
          </th>
          <th scope="col" className="py-2 pl-3 text-right font-semibold">
            Subtotal
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
        {order.orderItems.map((item, index) => (
          <tr key={index}>
            <td className="py-2 pr-2">
              {item.productId ? (
                <Link to={`/product/${item.productId}`} className="hover:underline">
                  {item.productName}
                </Link>
              ) : (
                item.productName
              )}
              <SizeNote label={item.sizeLabel} />
            </td>
            <td className="py-2 pl-3 text-right">{item.quantity}</td>
            <td className="hidden whitespace-nowrap py-2 pl-3 text-right sm:table-cell">{formatLkr(item.price)}</td>
            <td className="whitespace-nowrap py-2 pl-3 text-right">{formatLkr(item.subtotal)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="border-t border-slate-300 font-bold dark:border-slate-700">
          <th scope="row" colSpan={2} className="py-2 text-left">
            Total
          </th>
          <td className="hidden sm:table-cell" />
          <td className="whitespace-nowrap py-2 pl-3 text-right">{formatLkr(order.totalAmount)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

/** The "Items" card of an order's page (the customer's and the admin's). */
export function OrderItemsCard({ order }: { order: OrderView }) {
  return (
    <section className="card p-5" aria-labelledby="order-items-heading">
      <h2 id="order-items-heading" className="font-semibold">
        Items
      </h2>
      <div className="mt-3 overflow-x-auto">
        <OrderLines order={order} />
      </div>
    </section>
  );
}

/**
 * Each entry the same way at every width: the badges in a column as wide as the widest (a subgrid), then the time, and
 * under it who set the status. (Wrapping as the line ran out put "by …" under some rows and beside others.)
 */
export function OrderHistory({ order }: { order: OrderView }) {
  return (
    <ol className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-3">
      {order.statusHistory.map((entry, index) => (
        <li key={index} className="col-span-2 grid grid-cols-subgrid items-start text-sm" data-testid="history-entry">
          <span className="pt-px">
            <StatusBadge status={entry.status} />
          </span>
          <span className="min-w-0">
            <time dateTime={entry.changedAt} className="block text-slate-600 dark:text-slate-400">
              {formatDateTime(entry.changedAt)}
            </time>
            {entry.changedBy && <span className="block text-slate-500 dark:text-slate-400">by {entry.changedBy}</span>}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Who placed an order and where it goes (the admin's order page): name, e-mail and phone as links, address. */
export function OrderCustomer({ order }: { order: OrderView }) {
  return (
    <>
      <p className="mt-1 font-medium">{order.customerName}</p>
      <p className="break-all">
        <a href={`mailto:${order.customerEmail}`} className="text-brand-700 hover:underline dark:text-brand-300">
          {order.customerEmail}
        </a>
      </p>
      <p>
        <a href={`tel:${order.customerPhone.replace(/\s/g, "")}`} className="hover:underline">
          {groupedPhone(order.customerPhone)}
        </a>
      </p>
      <h3 className="mt-3 text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">Ship to</h3>
      <p className="mt-1 whitespace-pre-line">{order.shippingAddress}</p>
    </>
  );
}
