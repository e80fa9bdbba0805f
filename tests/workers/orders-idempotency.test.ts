import { beforeAll, describe, expect, it } from "vitest";

import { expectApiError, tag } from "./catalogue-helpers";
import { authHeader, bucketHoldingPuts, call, testEnv } from "./helpers";
import { mailRows } from "./outbox-helpers";
import {
  type Account,
  cartOk,
  cartRows,
  checkoutForm,
  countOrders,
  newCustomer,
  type Order,
  orderBody,
  orderForm,
  postCheckout,
  product,
  setStock,
  slipKeys,
  stockOf,
} from "./order-helpers";
import { findUserById } from "~/services/auth.server";
import { createDb } from "~/services/db.server";
import { placeOrder as placeOrderService, type PlacedOrder } from "~/services/orders.server";
import { bankDetails, type Mailer } from "~/services/outbox.server";

// POST /api/orders's optional Idempotency-Key header (additive to API.md): a second request of the same customer with
// the same key never places a second order, whenever it comes (after the first, or at the same moment); it answers
// the first's order, 201 as the first did. Keys are per customer; a malformed one is 400; without one, nothing changes.
// In its own file, so its storage holds nothing but what these tests create (orders and slips are counted).

const t = tag();
let customer: Account;
let other: Account;

beforeAll(async () => {
  [customer, other] = await Promise.all([newCustomer("Idem Customer"), newCustomer("Idem Other")]);
});

const KEY_HEADER = "Idempotency-Key";

/** POST /api/orders of one unit of the product (or `items`), with a key unless it is null. */
function postWithKey(account: Account, key: string | null, items: { productId: number; sizeId?: number; quantity: number }[]) {
  const headers = { ...authHeader(account.token), ...(key === null ? {} : { [KEY_HEADER]: key }) };
  return call("/api/orders", { method: "POST", body: orderForm(orderBody(items)), headers });
}

const newKey = () => crypto.randomUUID();

/** Orders that hold a line of this product, and the units ordered of it in all. */
async function orderedOf(productId: number): Promise<{ orders: number; units: number }> {
  const row = await testEnv.DB.prepare("SELECT count(DISTINCT order_id) AS orders, coalesce(sum(quantity), 0) AS units FROM order_items WHERE product_id = ?")
    .bind(productId)
    .first<{ orders: number; units: number }>();
  return row!;
}

describe("the same key twice, one after the other", () => {
  it("answers the first order again: same status, same body, marked Idempotent-Replayed; one order, stock taken once, one slip, one mail", async () => {
    const shoe = await product({ name: `Idem Replay ${t}`, stockQuantity: 5 });
    const key = newKey();
    const slipsBefore = await slipKeys();

    const first = await postWithKey(customer, key, [{ productId: shoe, quantity: 2 }]);
    expect(first.status, await first.clone().text()).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const firstBody = (await first.json()) as Order;

    const again = await postWithKey(customer, key, [{ productId: shoe, quantity: 2 }]);
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);

    expect(await orderedOf(shoe)).toEqual({ orders: 1, units: 2 });
    expect(await stockOf(shoe)).toBe(3);
    expect((await slipKeys()).filter((key) => !slipsBefore.includes(key))).toHaveLength(1);
    expect(await mailRows("order_id = ?", firstBody.id)).toHaveLength(1);
  });

  it("answers the first order whatever the second request holds (the key names the attempt, not its contents)", async () => {
    const shoe = await product({ name: `Idem Other Body ${t}`, stockQuantity: 5 });
    const key = newKey();
    const first = (await (await postWithKey(customer, key, [{ productId: shoe, quantity: 1 }])).json()) as Order;
    const again = await postWithKey(customer, key, [{ productId: shoe, quantity: 3 }]);
    expect(again.status).toBe(201);
    expect(((await again.json()) as Order).id).toBe(first.id);
    expect(await orderedOf(shoe)).toEqual({ orders: 1, units: 1 });
    expect(await stockOf(shoe)).toBe(4);
  });

  it("a refused attempt keeps nothing under its key: the same key places the order once it can be placed", async () => {
    const shoe = await product({ name: `Idem Refused ${t}`, stockQuantity: 1 });
    const key = newKey();
    await expectApiError(await postWithKey(customer, key, [{ productId: shoe, quantity: 2 }]), 409);
    await setStock(shoe, 2);
    const placed = await postWithKey(customer, key, [{ productId: shoe, quantity: 2 }]);
    expect(placed.status).toBe(201);
    expect(placed.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await orderedOf(shoe)).toEqual({ orders: 1, units: 2 });
  });
});

describe("the same key at the same moment", () => {
  it("five requests at once: every answer is 201 with one and the same order; stock taken once, one slip kept, one mail", async () => {
    const shoe = await product({ name: `Idem Rush ${t}`, stockQuantity: 10 });
    const key = newKey();
    const slipsBefore = await slipKeys();
    const ordersBefore = await countOrders();

    const responses = await Promise.all(Array.from({ length: 5 }, () => postWithKey(customer, key, [{ productId: shoe, quantity: 2 }])));
    const statuses = responses.map((response) => response.status);
    expect(statuses, JSON.stringify(statuses)).toEqual([201, 201, 201, 201, 201]);
    const bodies = (await Promise.all(responses.map((response) => response.json()))) as Order[];
    expect(new Set(bodies.map((body) => body.id)).size).toBe(1);
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(responses.filter((response) => response.headers.get("Idempotent-Replayed") === null)).toHaveLength(1);

    expect(await countOrders()).toBe(ordersBefore + 1);
    expect(await orderedOf(shoe)).toEqual({ orders: 1, units: 2 });
    expect(await stockOf(shoe)).toBe(8);
    // Every losing request's slip was removed again, as for any failed batch.
    expect((await slipKeys()).filter((key) => !slipsBefore.includes(key))).toHaveLength(1);
    expect(await mailRows("order_id = ?", bodies[0].id)).toHaveLength(1);
  });

  it("both read before either writes: the second batch fails on the (customer, key) index and answers the first's order", async () => {
    const shoe = await product({ name: `Idem Race ${t}`, stockQuantity: 10 });
    const key = newKey();
    const db = createDb(testEnv.DB);
    const user = (await findUserById(db, customer.id))!;
    const mailer: Mailer = { siteUrl: "http://localhost", bank: bankDetails(testEnv), enqueue: () => {} };
    const input = { ...(orderBody([{ productId: shoe, quantity: 3 }]) as Parameters<typeof placeOrderService>[3]) };
    const slip = { bytes: new Uint8Array([0x89]), type: "image/png" };
    const slipsBefore = await slipKeys();

    // B reads (no order of the key yet) and stops at its slip's upload; A places the order meanwhile.
    const { bucket: slowBucket, uploading, release } = bucketHoldingPuts();
    const b: Promise<PlacedOrder | string> = placeOrderService(db, slowBucket, user, input, slip, mailer, { idempotencyKey: key }).catch((error: Error) => `refused: ${error.message}`);
    await uploading;
    const a = await placeOrderService(db, testEnv.BUCKET, user, input, slip, mailer, { idempotencyKey: key });
    release();

    expect(a.replayed).toBe(false);
    expect(await b).toEqual({ order: a.order, replayed: true });
    expect(await orderedOf(shoe)).toEqual({ orders: 1, units: 3 });
    expect(await stockOf(shoe)).toBe(7);
    expect((await slipKeys()).filter((key) => !slipsBefore.includes(key))).toHaveLength(1);
  });
});

describe("keys that name other attempts", () => {
  it("two keys are two orders", async () => {
    const shoe = await product({ name: `Idem Two Keys ${t}`, stockQuantity: 5 });
    expect((await postWithKey(customer, newKey(), [{ productId: shoe, quantity: 1 }])).status).toBe(201);
    expect((await postWithKey(customer, newKey(), [{ productId: shoe, quantity: 1 }])).status).toBe(201);
    expect(await orderedOf(shoe)).toEqual({ orders: 2, units: 2 });
    expect(await stockOf(shoe)).toBe(3);
  });

  it("another customer's same key is another order (keys are per customer), and answers nothing of the first's", async () => {
    const shoe = await product({ name: `Idem Per Customer ${t}`, stockQuantity: 5 });
    const key = newKey();
    const mine = (await (await postWithKey(customer, key, [{ productId: shoe, quantity: 1 }])).json()) as Order;
    const theirs = await postWithKey(other, key, [{ productId: shoe, quantity: 1 }]);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("Idempotent-Replayed")).toBeNull();
    const theirOrder = (await theirs.json()) as Order;
    expect(theirOrder.id).not.toBe(mine.id);
    expect(await orderedOf(shoe)).toEqual({ orders: 2, units: 2 });
  });

  it("without a key, as API.md has it: the same request twice places two orders", async () => {
    const shoe = await product({ name: `Idem No Key ${t}`, stockQuantity: 5 });
    const [first, second] = [await postWithKey(customer, null, [{ productId: shoe, quantity: 1 }]), await postWithKey(customer, null, [{ productId: shoe, quantity: 1 }])];
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(second.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await orderedOf(shoe)).toEqual({ orders: 2, units: 2 });
    const stored = await testEnv.DB.prepare("SELECT idempotency_key AS k FROM orders WHERE id = ?").bind(((await first.json()) as Order).id).first<{ k: string | null }>();
    expect(stored?.k).toBeNull();
  });
});

describe("a malformed key", () => {
  const RULE = "Idempotency-Key must be 1 to 100 letters, digits, '-', '_', '.' or ':'";
  it.each([
    ["empty", ""],
    ["101 characters", "k".repeat(101)],
    ["a space inside", "my key"],
    ["a character outside the set", "key/1"],
    ["not ASCII", "clé-1"],
  ])("%s: 400 in API.md's shape, naming the header; nothing stored", async (_, key) => {
    const shoe = await product({ name: `Idem Bad ${t} ${key.length}`, stockQuantity: 5 });
    const slipsBefore = await slipKeys();
    // A header value must be ByteString: the non-ASCII key goes as its UTF-8 bytes, as a client would send them.
    const sent = /^[\x20-\x7e]*$/.test(key) ? key : String.fromCharCode(...new TextEncoder().encode(key));
    const body = await expectApiError(await postWithKey(customer, sent, [{ productId: shoe, quantity: 1 }]), 400);
    expect(body).toEqual({ message: RULE, fieldErrors: { [KEY_HEADER]: [RULE] } });
    expect(await orderedOf(shoe)).toEqual({ orders: 0, units: 0 });
    expect(await stockOf(shoe)).toBe(5);
    expect(await slipKeys()).toEqual(slipsBefore);
  });

  it("the longest key (100 characters of every kind allowed) is fine", async () => {
    const shoe = await product({ name: `Idem Long Key ${t}`, stockQuantity: 5 });
    const key = `Az09-_.:${"x".repeat(92)}`;
    expect((await postWithKey(customer, key, [{ productId: shoe, quantity: 1 }])).status).toBe(201);
    expect((await postWithKey(customer, key, [{ productId: shoe, quantity: 1 }])).headers.get("Idempotent-Replayed")).toBe("true");
    expect(await orderedOf(shoe)).toEqual({ orders: 1, units: 1 });
  });
});

describe("the checkout without JavaScript", () => {
  it("posted twice with the page's key (a double click): both land on one order", async () => {
    const shoe = await product({ name: `Idem Screen ${t}`, stockQuantity: 5 });
    const buyer = await newCustomer("Idem Screen Buyer");
    await cartOk("POST", `/add?productId=${shoe}&quantity=2`, buyer.token);
    const key = newKey();
    const first = await postCheckout(checkoutForm({ idempotencyKey: key }), buyer.cookie);
    const second = await postCheckout(checkoutForm({ idempotencyKey: key }), buyer.cookie);
    expect(first.status).toBe(302);
    expect(second.status).toBe(302);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await orderedOf(shoe)).toEqual({ orders: 1, units: 2 });
    expect(await stockOf(shoe)).toBe(3);
    expect(await cartRows(buyer.id)).toEqual({});
  });

  it("a malformed key is refused as the API refuses it, and nothing is stored", async () => {
    const shoe = await product({ name: `Idem Screen Bad ${t}`, stockQuantity: 5 });
    const buyer = await newCustomer("Idem Screen Bad Key");
    await cartOk("POST", `/add?productId=${shoe}&quantity=1`, buyer.token);
    const response = await postCheckout(checkoutForm({ idempotencyKey: "not a key" }), buyer.cookie);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Idempotency-Key must be 1 to 100 letters, digits");
    expect(await orderedOf(shoe)).toEqual({ orders: 0, units: 0 });
    expect(await cartRows(buyer.id)).toEqual({ [shoe]: 1 });
  });

  it("the checkout page carries a key of its own in its form, a new one on each load", async () => {
    const shoe = await product({ name: `Idem Screen Page ${t}`, stockQuantity: 5 });
    const buyer = await newCustomer("Idem Screen Page");
    await cartOk("POST", `/add?productId=${shoe}&quantity=1`, buyer.token);
    const keyOf = async () => {
      const html = await (await call("/cart?checkout", { headers: { Cookie: buyer.cookie } })).text();
      return html.match(/name="idempotencyKey" value="([^"]+)"/)?.[1];
    };
    const [one, two] = [await keyOf(), await keyOf()];
    expect(one).toMatch(/^[0-9a-f-]{36}$/);
    expect(two).toMatch(/^[0-9a-f-]{36}$/);
    expect(two).not.toBe(one);
  });
});

describe("the API's description", () => {
  it("GET /api/openapi.json names the optional Idempotency-Key header of POST /api/orders", async () => {
    const document = (await (await call("/api/openapi.json")).json()) as { paths: Record<string, Record<string, { parameters?: { name: string; in: string; required: boolean; schema: { pattern?: string } }[] }>> };
    const parameter = document.paths["/api/orders"].post.parameters?.find((entry) => entry.name === KEY_HEADER);
    expect(parameter).toMatchObject({ in: "header", required: false });
    expect(parameter?.schema.pattern).toBe("^[A-Za-z0-9_.:-]{1,100}$");
  });
});
