import { describe, expect, it } from "vitest";

import { tag, visibleText } from "./catalogue-helpers";
import { call, testEnv } from "./helpers";
import { type Account, cartOk, newCustomer, placeOrder, product } from "./order-helpers";

// An empty cart of a customer whose last order was placed in the last few minutes says so, with a link to it: a page
// reloaded while Place Order was on its way lands on an empty cart (the order was placed) and must not leave the
// shopper wondering. Read in the cart page's own batch (d1-round-trips.test.ts counts it).

const t = tag();

const cartHtml = async (cookie?: string) => (await call("/cart", { headers: cookie ? { Cookie: cookie } : {} })).text();
const hintOf = (html: string) => visibleText(html.replace(/<[^>]+>/g, "")).match(/Your order #\d+ was placed [^.]+\. View it/)?.[0] ?? null;

async function customerWithOrder(name: string): Promise<{ customer: Account; orderId: number; shoe: number }> {
  const customer = await newCustomer(name);
  const shoe = await product({ name: `${name} ${t}`, stockQuantity: 5 });
  const order = await placeOrder(customer.token, [{ productId: shoe, quantity: 1 }]);
  return { customer, orderId: order.id, shoe };
}

describe("the empty cart after an order", () => {
  it("says the order was placed a moment ago and links to it", async () => {
    const { customer, orderId } = await customerWithOrder("Recent Buyer");
    const html = await cartHtml(customer.cookie);
    expect(hintOf(html)).toBe(`Your order #${orderId} was placed a moment ago. View it`);
    expect(html).toContain(`href="/orders/${orderId}"`);
    expect(visibleText(html)).toContain("Your cart is empty");
  });

  it("counts the minutes, and says nothing once ten have passed", async () => {
    const { customer, orderId } = await customerWithOrder("Earlier Buyer");
    const setAge = (minutes: number) => testEnv.DB.prepare("UPDATE orders SET created_at = ? WHERE id = ?").bind(Date.now() - minutes * 60_000 - 5_000, orderId).run();
    await setAge(3);
    expect(hintOf(await cartHtml(customer.cookie))).toBe(`Your order #${orderId} was placed 3 minutes ago. View it`);
    await setAge(1);
    expect(hintOf(await cartHtml(customer.cookie))).toBe(`Your order #${orderId} was placed a minute ago. View it`);
    await setAge(10);
    expect(hintOf(await cartHtml(customer.cookie))).toBeNull();
  });

  it("says nothing over a cart with lines, to another customer, or to a visitor", async () => {
    const { customer, shoe } = await customerWithOrder("Busy Buyer");
    await cartOk("POST", `/add?productId=${shoe}`, customer.token);
    expect(hintOf(await cartHtml(customer.cookie))).toBeNull();
    const other = await newCustomer("Other Shopper");
    expect(hintOf(await cartHtml(other.cookie))).toBeNull();
    expect(hintOf(await cartHtml())).toBeNull();
  });
});
