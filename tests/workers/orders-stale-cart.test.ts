import { beforeAll, describe, expect, it } from "vitest";

import { type ApiProduct, createProductApi, expectApiError, onlySizeOf, productBody, tag, updateProductApi, visibleText } from "./catalogue-helpers";
import { authHeader, bucketHoldingPuts, call, testEnv } from "./helpers";
import {
  type Account,
  cartOk,
  cartRows,
  checkoutForm,
  countOrders,
  newAdmin,
  newCustomer,
  type Order,
  orderBody,
  orderForm,
  postCheckout,
  product,
  slipKeys,
  stockOf,
} from "./order-helpers";
import { findUserById } from "~/services/auth.server";
import { createDb } from "~/services/db.server";
import { placeOrder as placeOrderService } from "~/services/orders.server";
import { bankDetails, type Mailer } from "~/services/outbox.server";

// A checkout open in one tab while another changes the cart: the checkout sends the lines it shows with
// `fromCart: true` (additive to API.md) and the server compares them with the cart, read in the order's own batch.
// When they differ (a line added, raised or removed; a size removed or a product deleted since) the order is 409 and
// nothing changes, so the shopper sees the cart as it is; without the flag, API.md's order empties the whole cart.

const t = tag();
const CART_CHANGED = "Your cart changed in another tab or window. Please check it and place your order again.";
const UNKNOWN_SIZE = "That size is not one of this product's sizes";
let admin: Account;

beforeAll(async () => {
  admin = await newAdmin();
});

interface Shop {
  buyer: Account;
  socks: number;
  cap: number;
}

/** A customer whose cart (tab A's checkout) holds one pair of socks; the socks and a cap have 10 each in stock. */
async function shopWithSocks(name: string): Promise<Shop> {
  const [buyer, socks, cap] = await Promise.all([
    newCustomer(`Stale ${name}`),
    product({ name: `Socks ${name} ${t}`, category: "Accessories", stockQuantity: 10, price: 900 }),
    product({ name: `Cap ${name} ${t}`, category: "Accessories", stockQuantity: 10, price: 2500 }),
  ]);
  await cartOk("POST", `/add?productId=${socks}`, buyer.token);
  return { buyer, socks, cap };
}

/** What tab A's checkout sends: the lines it shows (socks x1), from the cart. */
async function postShown(shop: Shop, items: { productId: number; sizeId?: number; quantity: number }[], extra: Record<string, unknown> = { fromCart: true }) {
  return call("/api/orders", { method: "POST", body: orderForm(orderBody(items, extra)), headers: authHeader(shop.buyer.token) });
}

/** Nothing changes for a refused checkout: no order, the stock, the cart and the slips in R2 as they were. */
async function expectUnchanged(shop: Shop, run: () => Promise<void>) {
  const [orders, socksStock, capStock, cart, slips] = [await countOrders(), await stockOf(shop.socks), await stockOf(shop.cap), await cartRows(shop.buyer.id), await slipKeys()];
  await run();
  expect(await countOrders()).toBe(orders);
  expect(await stockOf(shop.socks)).toBe(socksStock);
  expect(await stockOf(shop.cap)).toBe(capStock);
  expect(await cartRows(shop.buyer.id)).toEqual(cart);
  expect(await slipKeys()).toEqual(slips);
}

describe("POST /api/orders with fromCart", () => {
  it("the cart as shown: placed, and the cart emptied", async () => {
    const shop = await shopWithSocks("As Shown");
    await cartOk("POST", `/add?productId=${shop.cap}&quantity=2`, shop.buyer.token);
    // In another order than the cart's, and the socks' one size left to the server (the API allows it).
    const response = await postShown(shop, [{ productId: shop.cap, sizeId: await onlySizeOf(shop.cap), quantity: 2 }, { productId: shop.socks, quantity: 1 }]);
    expect(response.status, await response.clone().text()).toBe(201);
    const order = (await response.json()) as Order;
    expect(order.orderItems.map((item) => [item.productId, item.quantity])).toEqual([[shop.cap, 2], [shop.socks, 1]]);
    expect(await cartRows(shop.buyer.id)).toEqual({});
    expect(await stockOf(shop.socks)).toBe(9);
  });

  it("another tab added a cap and raised the socks to 2: 409, and nothing changes", async () => {
    const shop = await shopWithSocks("Raised");
    await cartOk("POST", `/add?productId=${shop.cap}`, shop.buyer.token);
    await cartOk("PUT", `/set?productId=${shop.socks}&quantity=2`, shop.buyer.token);
    await expectUnchanged(shop, async () => {
      const body = await expectApiError(await postShown(shop, [{ productId: shop.socks, quantity: 1 }]), 409);
      expect(body.message).toBe(CART_CHANGED);
    });
    expect(await cartRows(shop.buyer.id)).toEqual({ [shop.socks]: 2, [shop.cap]: 1 });
  });

  it.each([
    ["added a line", async (shop: Shop) => void (await cartOk("POST", `/add?productId=${shop.cap}`, shop.buyer.token))],
    ["raised the line", async (shop: Shop) => void (await cartOk("PUT", `/set?productId=${shop.socks}&quantity=3`, shop.buyer.token))],
    ["removed the line (the cart is empty)", async (shop: Shop) => void (await cartOk("DELETE", `/remove?productId=${shop.socks}`, shop.buyer.token))],
    ["swapped the line for another", async (shop: Shop) => {
      await cartOk("DELETE", `/remove?productId=${shop.socks}`, shop.buyer.token);
      await cartOk("POST", `/add?productId=${shop.cap}`, shop.buyer.token);
    }],
  ])("another tab %s: 409 and nothing changes", async (_, change) => {
    const shop = await shopWithSocks(`Change ${crypto.randomUUID().slice(0, 6)}`);
    await change(shop);
    await expectUnchanged(shop, async () => {
      expect((await expectApiError(await postShown(shop, [{ productId: shop.socks, quantity: 1 }]), 409)).message).toBe(CART_CHANGED);
    });
  });

  it("without fromCart, as API.md has it: the lines sent are ordered and the whole cart is emptied", async () => {
    const shop = await shopWithSocks("Api Client");
    await cartOk("POST", `/add?productId=${shop.cap}`, shop.buyer.token);
    await cartOk("PUT", `/set?productId=${shop.socks}&quantity=2`, shop.buyer.token);
    const response = await postShown(shop, [{ productId: shop.socks, quantity: 1 }], {});
    expect(response.status).toBe(201);
    expect(await cartRows(shop.buyer.id)).toEqual({});
  });

  it("a fromCart that is not true or false is 400", async () => {
    const shop = await shopWithSocks("Bad Flag");
    const body = await expectApiError(await postShown(shop, [{ productId: shop.socks, quantity: 1 }], { fromCart: "yes" }), 400);
    expect(body.fieldErrors).toEqual({ fromCart: ["fromCart must be true or false"] });
  });

  it("a line another tab added while the order was on its way stays in the cart: only the lines ordered leave it", async () => {
    const shop = await shopWithSocks("In Flight");
    const db = createDb(testEnv.DB);
    const user = (await findUserById(db, shop.buyer.id))!;
    const mailer: Mailer = { siteUrl: "http://localhost", bank: bankDetails(testEnv), enqueue: () => {} };
    const input = orderBody([{ productId: shop.socks, quantity: 1 }], { fromCart: true }) as Parameters<typeof placeOrderService>[3];
    // The order has read the cart (socks x1) and waits at its slip's upload while the other tab adds a cap.
    const { bucket, uploading, release } = bucketHoldingPuts();
    const placing = placeOrderService(db, bucket, user, input, { bytes: new Uint8Array([0x89]), type: "image/png" }, mailer);
    await uploading;
    await cartOk("POST", `/add?productId=${shop.cap}`, shop.buyer.token);
    release();
    expect((await placing).order.orderItems.map((item) => item.productId)).toEqual([shop.socks]);
    expect(await cartRows(shop.buyer.id)).toEqual({ [shop.cap]: 1 });
  });
});

describe("a line the shop took away since the checkout showed it", () => {
  /** A Gents shoe in EU 40 and EU 41, 5 pairs each, whose EU 41 is in the customer's cart. */
  async function shoeInCart(name: string) {
    const shoe = await createProductApi(admin.token, { name: `${name} ${t}`, category: "Gents", sizes: [{ label: "EU 40", stockQuantity: 5 }, { label: "EU 41", stockQuantity: 5 }] });
    const buyer = await newCustomer(`Gone ${name}`);
    const eu41 = shoe.sizes.find((size) => size.label === "EU 41")!.id;
    await cartOk("POST", `/add?productId=${shoe.id}&sizeId=${eu41}`, buyer.token);
    return { shoe, buyer, eu41 };
  }

  /** The admin's save without EU 41: the size goes, and its cart lines with it. */
  const removeEu41 = (shoe: ApiProduct) =>
    updateProductApi(admin.token, shoe.id, { ...productBody({ name: shoe.name, category: "Gents" }), sizes: shoe.sizes.filter((size) => size.label !== "EU 41").map(({ id, label, stockQuantity }) => ({ id, label, stockQuantity })) });

  const post = (buyer: Account, items: unknown[], extra: Record<string, unknown>) =>
    call("/api/orders", { method: "POST", body: orderForm(orderBody(items as never, extra)), headers: authHeader(buyer.token) });

  it("a removed size: 409 saying the product is no longer sold in that size (the checkout then shows the cart); nothing stored", async () => {
    const { shoe, buyer, eu41 } = await shoeInCart("Night Shift");
    await removeEu41(shoe);
    expect(await cartRows(buyer.id)).toEqual({});
    const orders = await countOrders();
    const body = await expectApiError(await post(buyer, [{ productId: shoe.id, sizeId: eu41, quantity: 1 }], { fromCart: true }), 409);
    expect(body.message).toBe(`${shoe.name} is no longer sold in the size you chose, so it was taken out of your cart. Please check your cart and place your order again.`);
    expect(await countOrders()).toBe(orders);
  });

  it("the API without fromCart keeps API.md's answer: 400 'That size is not one of this product's sizes'", async () => {
    const { shoe, buyer, eu41 } = await shoeInCart("Night Shift Api");
    await removeEu41(shoe);
    const body = await expectApiError(await post(buyer, [{ productId: shoe.id, sizeId: eu41, quantity: 1 }], {}), 400);
    expect(body.message).toBe(UNKNOWN_SIZE);
  });

  it("a deleted product: 409 with fromCart, 404 without", async () => {
    const { shoe, buyer, eu41 } = await shoeInCart("Deleted Runner");
    expect((await call(`/api/product/${shoe.id}`, { method: "DELETE", headers: authHeader(admin.token) })).status).toBe(204);
    const body = await expectApiError(await post(buyer, [{ productId: shoe.id, sizeId: eu41, quantity: 1 }], { fromCart: true }), 409);
    expect(body.message).toBe("An item in your cart is no longer sold in the shop, so it was taken out. Please check your cart and place your order again.");
    await expectApiError(await post(buyer, [{ productId: shoe.id, sizeId: eu41, quantity: 1 }], {}), 404);
  });
});

describe("the checkout without JavaScript", () => {
  const shownField = (lines: { productId: number; sizeId: number; quantity: number }[]) => ({ cartLines: JSON.stringify(lines) });

  it("orders the lines its page showed when the cart still holds them", async () => {
    const shop = await shopWithSocks("Screen Same");
    const response = await postCheckout(checkoutForm(shownField([{ productId: shop.socks, sizeId: await onlySizeOf(shop.socks), quantity: 1 }])), shop.buyer.cookie);
    expect(response.status).toBe(302);
    expect(await cartRows(shop.buyer.id)).toEqual({});
  });

  it("refuses a page older than the cart (409, said on the page, which shows the cart as it is); nothing changes", async () => {
    const shop = await shopWithSocks("Screen Stale");
    const shown = shownField([{ productId: shop.socks, sizeId: await onlySizeOf(shop.socks), quantity: 1 }]);
    await cartOk("POST", `/add?productId=${shop.cap}`, shop.buyer.token);
    await cartOk("PUT", `/set?productId=${shop.socks}&quantity=2`, shop.buyer.token);
    await expectUnchanged(shop, async () => {
      const response = await postCheckout(checkoutForm(shown), shop.buyer.cookie);
      expect(response.status).toBe(409);
      const text = visibleText(await response.text());
      expect(text).toContain(CART_CHANGED);
      expect(text).toContain(`Cap Screen Stale ${t}`);
    });
  });

  it("after a Remove in another tab (the cart is empty): 409, and the page says it above the empty cart", async () => {
    const shop = await shopWithSocks("Screen Removed");
    const shown = shownField([{ productId: shop.socks, sizeId: await onlySizeOf(shop.socks), quantity: 1 }]);
    await cartOk("DELETE", `/remove?productId=${shop.socks}`, shop.buyer.token);
    await expectUnchanged(shop, async () => {
      const response = await postCheckout(checkoutForm(shown), shop.buyer.cookie);
      expect(response.status).toBe(409);
      const text = visibleText(await response.text());
      expect(text).toContain(CART_CHANGED);
      expect(text).toContain("Your cart is empty");
    });
  });

  it("a malformed list of lines is 400 and changes nothing", async () => {
    const shop = await shopWithSocks("Screen Malformed");
    await expectUnchanged(shop, async () => {
      expect((await postCheckout(checkoutForm({ cartLines: "[{" }), shop.buyer.cookie)).status).toBe(400);
      expect((await postCheckout(checkoutForm({ cartLines: "[]" }), shop.buyer.cookie)).status).toBe(400);
    });
  });

  it("the checkout page carries the lines it shows", async () => {
    const shop = await shopWithSocks("Screen Carries");
    const html = await (await call("/cart?checkout", { headers: { Cookie: shop.buyer.cookie } })).text();
    const field = html.match(/name="cartLines" value="([^"]+)"/)?.[1].replaceAll("&quot;", '"');
    expect(JSON.parse(field!)).toEqual([{ productId: shop.socks, sizeId: await onlySizeOf(shop.socks), quantity: 1 }]);
  });
});
