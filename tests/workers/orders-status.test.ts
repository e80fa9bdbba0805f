import { beforeAll, describe, expect, it } from "vitest";

import { expectApiError, tag } from "./catalogue-helpers";
import { authHeader, call } from "./helpers";
import { type Account, newAdmin, newCustomer, type Order, orderStatusOf, placeOrder, product, setStock, stockOf } from "./order-helpers";

// The admin's order management: status changes (stock back on CANCELLED, taken again when leaving it), the status
// history written by the database, the admin list and its filter, and who may do what.

const t = tag();
let customer: Account;
let admin: Account;

beforeAll(async () => {
  [customer, admin] = await Promise.all([newCustomer("Status Customer"), newAdmin()]);
});

const ADMIN_NAME = "Admin Amara"; // registerAdmin()'s name

function putStatus(orderId: number | string, status: string, headers: Record<string, string> = admin.auth): Promise<Response> {
  return call(`/api/orders/admin/${orderId}/status?status=${encodeURIComponent(status)}`, { method: "PUT", headers });
}

async function setStatus(orderId: number, status: string): Promise<Order> {
  const response = await putStatus(orderId, status);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Order;
}

async function adminList(query = "", headers: Record<string, string> = admin.auth): Promise<Response> {
  return call(`/api/orders/admin/all${query}`, { headers });
}

describe("PUT /api/orders/admin/{id}/status", () => {
  let id: number;
  let order: Order;
  const name = `Status Shoe ${t}`;

  beforeAll(async () => {
    id = await product({ name, stockQuantity: 5 });
    order = await placeOrder(customer.token, [{ productId: id, quantity: 2 }]);
    expect(await stockOf(id)).toBe(3);
  });

  it("moves to CONFIRMED and records it in the history with the admin's name", async () => {
    const updated = await setStatus(order.id, "CONFIRMED");
    expect(updated.status).toBe("CONFIRMED");
    expect(updated.statusHistory.map((entry) => [entry.status, entry.changedBy])).toEqual([
      ["PENDING", "Status Customer"],
      ["CONFIRMED", ADMIN_NAME],
    ]);
    expect(await stockOf(id)).toBe(3);
  });

  it("CANCELLED puts the stock back", async () => {
    const updated = await setStatus(order.id, "CANCELLED");
    expect(updated.status).toBe("CANCELLED");
    expect(await stockOf(id)).toBe(5);
  });

  it("setting the same status again changes nothing (no stock returned twice, no new history entry)", async () => {
    const updated = await setStatus(order.id, "CANCELLED");
    expect(updated.statusHistory).toHaveLength(3);
    expect(await stockOf(id)).toBe(5);
  });

  it("back to PENDING takes the stock again", async () => {
    const updated = await setStatus(order.id, "PENDING");
    expect(updated.status).toBe("PENDING");
    expect(await stockOf(id)).toBe(3);
  });

  it("leaving CANCELLED when the stock is gone is 409 and the status stays CANCELLED", async () => {
    await setStatus(order.id, "CANCELLED");
    expect(await stockOf(id)).toBe(5);
    await setStock(id, 1); // sold elsewhere meanwhile
    const body = await expectApiError(await putStatus(order.id, "CONFIRMED"), 409);
    expect(body.message).toMatch(/stock/i);
    expect(body.message).toContain(name);
    expect(await orderStatusOf(order.id)).toBe("CANCELLED");
    expect(await stockOf(id)).toBe(1);
  });

  it("with the stock at 0, leaving CANCELLED is 409 too", async () => {
    await setStock(id, 0);
    await expectApiError(await putStatus(order.id, "PENDING"), 409);
    expect(await orderStatusOf(order.id)).toBe("CANCELLED");
    expect(await stockOf(id)).toBe(0);
  });

  it("every change is in the history, in order, by the admin; the refused ones are not", async () => {
    await setStock(id, 2);
    const updated = await setStatus(order.id, "SHIPPED");
    expect(await stockOf(id)).toBe(0);
    expect(updated.statusHistory.map((entry) => entry.status)).toEqual(["PENDING", "CONFIRMED", "CANCELLED", "PENDING", "CANCELLED", "SHIPPED"]);
    expect(updated.statusHistory.slice(1).every((entry) => entry.changedBy === ADMIN_NAME)).toBe(true);
    for (const entry of updated.statusHistory) expect(new Date(entry.changedAt).toISOString()).toBe(entry.changedAt);
    // The customer sees the same history.
    const mine = (await (await call("/api/orders/my", { headers: customer.auth })).json()) as Order[];
    expect(mine.find((o) => o.id === order.id)?.statusHistory).toEqual(updated.statusHistory);
  });

  it("any status can follow any other (DELIVERED back to PROCESSING)", async () => {
    await setStatus(order.id, "DELIVERED");
    expect((await setStatus(order.id, "PROCESSING")).status).toBe("PROCESSING");
  });

  it("a cancelled order of several products returns each one's stock", async () => {
    const a = await product({ name: `Status A ${t}`, stockQuantity: 4 });
    const b = await product({ name: `Status B ${t}`, stockQuantity: 6 });
    const two = await placeOrder(customer.token, [{ productId: a, quantity: 3 }, { productId: b, quantity: 2 }]);
    expect([await stockOf(a), await stockOf(b)]).toEqual([1, 4]);
    await setStatus(two.id, "CANCELLED");
    expect([await stockOf(a), await stockOf(b)]).toEqual([4, 6]);
    await setStatus(two.id, "CONFIRMED");
    expect([await stockOf(a), await stockOf(b)]).toEqual([1, 4]);
  });

  it("five admins cancelling at once put the stock back once", async () => {
    const id = await product({ name: `Status Rush ${t}`, stockQuantity: 5 });
    const rushed = await placeOrder(customer.token, [{ productId: id, quantity: 2 }]);
    const responses = await Promise.all(Array.from({ length: 5 }, () => putStatus(rushed.id, "CANCELLED")));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await stockOf(id)).toBe(5);
    const history = ((await responses[0].json()) as Order).statusHistory;
    const latest = (await setStatus(rushed.id, "CANCELLED")).statusHistory;
    expect(latest.map((entry) => entry.status)).toEqual(["PENDING", "CANCELLED"]);
    expect(history.length).toBeLessThanOrEqual(2);
  });

  for (const status of ["BOGUS", "pending", ""]) {
    it(`status ${JSON.stringify(status)} is 400 and changes nothing`, async () => {
      const before = await orderStatusOf(order.id);
      const body = await expectApiError(await putStatus(order.id, status), 400);
      expect(body.fieldErrors?.status).toBeDefined();
      expect(await orderStatusOf(order.id)).toBe(before);
    });
  }

  it("no status parameter is 400", async () => {
    await expectApiError(await call(`/api/orders/admin/${order.id}/status`, { method: "PUT", headers: admin.auth }), 400);
  });

  it("a customer is 403 (even for their own order) and nothing changes", async () => {
    const before = await orderStatusOf(order.id);
    await expectApiError(await putStatus(order.id, "CANCELLED", customer.auth), 403);
    expect(await orderStatusOf(order.id)).toBe(before);
  });

  it("a visitor is 401", async () => {
    const body = await expectApiError(await putStatus(order.id, "CANCELLED", {}), 401);
    expect(body.message).toMatch(/token/i);
  });

  it("a missing order is 404; an id that is not a positive integer is 404", async () => {
    for (const missing of ["987654", "abc", "0", "-1", "1.5"]) {
      await expectApiError(await putStatus(missing, "CONFIRMED"), 404);
    }
  });
});

describe("GET /api/orders/admin/all", () => {
  let first: Order;
  let second: Order;
  let third: Order;

  beforeAll(async () => {
    const id = await product({ name: `List Shoe ${t}`, stockQuantity: 20 });
    first = await placeOrder(customer.token, [{ productId: id, quantity: 1 }]);
    second = await placeOrder(customer.token, [{ productId: id, quantity: 1 }]);
    third = await placeOrder(customer.token, [{ productId: id, quantity: 1 }]);
    await setStatus(second.id, "CONFIRMED");
  });

  it("lists every order, newest first", async () => {
    const response = await adminList();
    expect(response.status).toBe(200);
    const all = (await response.json()) as Order[];
    const ids = all.map((order) => order.id);
    expect(ids).toEqual(expect.arrayContaining([first.id, second.id, third.id]));
    expect(ids.indexOf(third.id)).toBeLessThan(ids.indexOf(second.id));
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    const dates = all.map((order) => Date.parse(order.orderDate));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(all.find((order) => order.id === first.id)).toMatchObject({ customerName: "Kasun Silva", hasBankSlip: true, status: "PENDING" });
  });

  it("?status=PENDING lists only pending orders", async () => {
    const pending = (await (await adminList("?status=PENDING")).json()) as Order[];
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.every((order) => order.status === "PENDING")).toBe(true);
    const ids = pending.map((order) => order.id);
    expect(ids).toContain(first.id);
    expect(ids).toContain(third.id);
    expect(ids).not.toContain(second.id);
    expect(ids.indexOf(third.id)).toBeLessThan(ids.indexOf(first.id));
  });

  it("?status=CONFIRMED lists only confirmed orders", async () => {
    const confirmed = (await (await adminList("?status=CONFIRMED")).json()) as Order[];
    expect(confirmed.every((order) => order.status === "CONFIRMED")).toBe(true);
    expect(confirmed.map((order) => order.id)).toContain(second.id);
  });

  it("an unknown status is 400", async () => {
    await expectApiError(await adminList("?status=LOST"), 400);
  });

  it("a customer is 403, a visitor 401", async () => {
    await expectApiError(await adminList("", customer.auth), 403);
    await expectApiError(await adminList("", {}), 401);
    await expectApiError(await adminList("", authHeader("not.a.token")), 401);
  });
});
