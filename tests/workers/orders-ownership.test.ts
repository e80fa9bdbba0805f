import { beforeAll, describe, expect, it } from "vitest";

import { expectApiError, onlySizeOf, tag } from "./catalogue-helpers";
import { sameBytes } from "./fixtures/images";
import { authHeader, call, testEnv } from "./helpers";
import { type Account, JPEG_1X1, PDF_BYTES, bytesOf, jpeg, newAdmin, newCustomer, type Order, pdf, placeOrder, product, slipKeyOf, stockOf } from "./order-helpers";

// Who sees which order: a customer only their own (list and bank slip), an admin every one. Past orders keep their
// lines when the product is deleted from the catalogue.

const t = tag();
let alice: Account;
let bob: Account;
let admin: Account;
let aliceFirst: Order;
let aliceSecond: Order;
let bobOrder: Order;
let shoe: number;

beforeAll(async () => {
  [alice, bob, admin] = await Promise.all([newCustomer("Alice Fernando"), newCustomer("Bob Perera"), newAdmin()]);
  shoe = await product({ name: `Owned Shoe ${t}`, price: 7999, stockQuantity: 20 });
  aliceFirst = await placeOrder(alice.token, [{ productId: shoe, quantity: 1 }], jpeg("slip.jpg"), { customerName: "Alice Fernando" });
  bobOrder = await placeOrder(bob.token, [{ productId: shoe, quantity: 2 }], pdf(), { customerName: "Bob Perera" });
  aliceSecond = await placeOrder(alice.token, [{ productId: shoe, quantity: 3 }], jpeg("slip.jpg"), { customerName: "Alice Fernando" });
});

async function myOrders(account: Account): Promise<Order[]> {
  const response = await call("/api/orders/my", { headers: account.auth });
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  return (await response.json()) as Order[];
}

const slip = (orderId: number | string, headers: Record<string, string>) => call(`/api/orders/${orderId}/bank-slip`, { headers });

describe("GET /api/orders/my", () => {
  it("shows only the customer's own orders, newest first", async () => {
    expect((await myOrders(alice)).map((order) => order.id)).toEqual([aliceSecond.id, aliceFirst.id]);
    expect((await myOrders(bob)).map((order) => order.id)).toEqual([bobOrder.id]);
  });

  it("a customer with no orders gets []", async () => {
    expect(await myOrders(admin)).toEqual([]);
  });

  it("carries API.md's Order fields", async () => {
    const [latest] = await myOrders(alice);
    for (const field of ["id", "customerName", "customerEmail", "customerPhone", "shippingAddress", "totalAmount", "status", "orderDate", "hasBankSlip", "orderItems"]) {
      expect(latest).toHaveProperty(field);
    }
    expect(latest.orderItems[0]).toEqual({ productId: shoe, productName: `Owned Shoe ${t}`, sizeId: await onlySizeOf(shoe), sizeLabel: "One size", quantity: 3, price: 7999, subtotal: 23997 });
    expect(latest.totalAmount).toBe(23997);
    expect(JSON.stringify(latest)).not.toMatch(/slips\//); // the R2 key stays on the server
  });

  it("a visitor is 401", async () => {
    expect((await expectApiError(await call("/api/orders/my"), 401)).message).toMatch(/token/i);
  });
});

describe("GET /api/orders/{id}/bank-slip", () => {
  it("the customer who placed it reads it inline, with the type its bytes show", async () => {
    const response = await slip(aliceFirst.id, alice.auth);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(response.headers.get("Content-Disposition")).toMatch(/^inline\b/);
    expect(sameBytes(await bytesOf(response), JPEG_1X1)).toBe(true);
  });

  it("another customer's slip is 403", async () => {
    await expectApiError(await slip(bobOrder.id, alice.auth), 403);
    await expectApiError(await slip(aliceFirst.id, bob.auth), 403);
  });

  it("an admin reads any customer's slip", async () => {
    const response = await slip(bobOrder.id, admin.auth);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toMatch(/^inline\b/);
    expect(sameBytes(await bytesOf(response), PDF_BYTES)).toBe(true);
    const jpegSlip = await slip(aliceSecond.id, admin.auth);
    expect(jpegSlip.status).toBe(200);
    expect(jpegSlip.headers.get("Content-Type")).toBe("image/jpeg");
    await jpegSlip.arrayBuffer();
  });

  it("a visitor is 401", async () => {
    await expectApiError(await slip(aliceFirst.id, {}), 401);
    await expectApiError(await slip(aliceFirst.id, authHeader("x.y.z")), 401);
  });

  it("a missing order is 404, an id that is not a positive integer too", async () => {
    for (const id of ["987654", "abc", "0", "-2"]) await expectApiError(await slip(id, admin.auth), 404);
  });

  it("an order whose slip object is gone from R2 is 404, not a 500", async () => {
    const order = await placeOrder(bob.token, [{ productId: shoe, quantity: 1 }]);
    await testEnv.BUCKET.delete((await slipKeyOf(order.id))!);
    await expectApiError(await slip(order.id, bob.auth), 404);
  });
});

describe("a product deleted from the catalogue", () => {
  it("keeps its order lines (name, price, subtotal) in /api/orders/my and the admin list", async () => {
    const name = `Deleted Later ${t}`;
    const id = await product({ name, price: 15250.5, stockQuantity: 4 });
    const order = await placeOrder(alice.token, [{ productId: id, quantity: 2 }, { productId: shoe, quantity: 1 }]);
    const deleted = await call(`/api/product/${id}`, { method: "DELETE", headers: admin.auth });
    expect(deleted.status).toBe(204);

    const kept = (await myOrders(alice)).find((o) => o.id === order.id)!;
    expect(kept.orderItems).toHaveLength(2);
    expect(kept.orderItems[0]).toMatchObject({ productName: name, quantity: 2, price: 15250.5, subtotal: 30501 });
    expect(kept.orderItems[0].productId === null || kept.orderItems[0].productId === id).toBe(true);
    expect(kept.totalAmount).toBe(30501 + 7999);

    const all = (await (await call("/api/orders/admin/all", { headers: admin.auth })).json()) as Order[];
    expect(all.find((o) => o.id === order.id)?.orderItems[0]).toMatchObject({ productName: name, price: 15250.5 });
  });

  it("its orders can still be cancelled (the stock of the products that remain goes back), not reopened (409)", async () => {
    const gone = await product({ name: `Gone ${t}`, stockQuantity: 3 });
    const before = (await stockOf(shoe))!;
    const order = await placeOrder(alice.token, [{ productId: gone, quantity: 1 }, { productId: shoe, quantity: 2 }]);
    await call(`/api/product/${gone}`, { method: "DELETE", headers: admin.auth });
    const cancelled = await call(`/api/orders/admin/${order.id}/status?status=CANCELLED`, { method: "PUT", headers: admin.auth });
    expect(cancelled.status).toBe(200);
    expect(await stockOf(shoe)).toBe(before);
    // API.md: leaving CANCELLED takes the stock again, 409 when it is no longer there: the deleted product's is not.
    const reopened = await call(`/api/orders/admin/${order.id}/status?status=PENDING`, { method: "PUT", headers: admin.auth });
    expect(reopened.status).toBe(409);
    expect(await stockOf(shoe)).toBe(before);
  });
});
