import { beforeAll, describe, expect, it } from "vitest";

import {
  addRupees,
  adminAccount,
  customerAccount,
  getStats,
  placeOrder,
  realCounts,
  screenHtml,
  setStatus,
  stockOf,
  stockedProduct,
  type Account,
} from "./admin-helpers";
import { insertProduct, visibleText } from "./catalogue-helpers";
import { register, testEnv } from "./helpers";

// GET /api/stats (admin) and the dashboard that shows it: the figures follow an order through its whole life.
// Storage is shared by the tests of this file, so every check compares with the figures read just before.

let admin: Account;
let customer: Account;

beforeAll(async () => {
  admin = await adminAccount();
  customer = await customerAccount();
});

describe("GET /api/stats", () => {
  it("answers API.md's Stats: four numbers, nothing else", async () => {
    const stats = await getStats(admin.token);
    expect(Object.keys(stats).sort()).toEqual(["pendingOrders", "totalProducts", "totalRevenue", "totalUsers"]);
    for (const value of Object.values(stats)) expect(typeof value).toBe("number");
  });

  it("counts every product and every user, as D1 holds them", async () => {
    await insertProduct();
    await insertProduct({ category: "Kids" });
    await register();
    const stats = await getStats(admin.token);
    const real = await realCounts();
    expect(stats.totalProducts).toBe(real.products);
    expect(stats.totalUsers).toBe(real.users);
    expect(stats.pendingOrders).toBe(real.pending);
    expect(stats.totalRevenue).toBe(real.revenueCents / 100);
  });

  it("a new product and a new user move their counts by one; a deleted product too", async () => {
    const before = await getStats(admin.token);
    const id = await insertProduct();
    await register();
    const after = await getStats(admin.token);
    expect(after.totalProducts).toBe(before.totalProducts + 1);
    expect(after.totalUsers).toBe(before.totalUsers + 1);
    await testEnv.DB.prepare("DELETE FROM products WHERE id = ?").bind(id).run();
    expect((await getStats(admin.token)).totalProducts).toBe(before.totalProducts);
  });

  it("follows an order's life: placed (pending, no revenue), confirmed (revenue), cancelled (revenue gone, stock back)", async () => {
    const shoe = await stockedProduct(12345.5, 5);
    const socks = await stockedProduct(999.99, 20);
    const start = await getStats(admin.token);

    const order = await placeOrder(customer.token, [
      { productId: shoe, quantity: 2 },
      { productId: socks, quantity: 3 },
    ]);
    expect(order.status).toBe("PENDING");
    expect(order.totalAmount).toBe(27690.97); // 2 × 12,345.50 + 3 × 999.99
    expect(await stockOf(shoe)).toBe(3);
    const placed = await getStats(admin.token);
    expect(placed.pendingOrders).toBe(start.pendingOrders + 1);
    expect(placed.totalRevenue).toBe(start.totalRevenue); // a pending order's payment is not verified yet

    await setStatus(admin.token, order.id, "CONFIRMED");
    const confirmed = await getStats(admin.token);
    expect(confirmed.pendingOrders).toBe(start.pendingOrders);
    expect(confirmed.totalRevenue).toBe(addRupees(start.totalRevenue, order.totalAmount));

    await setStatus(admin.token, order.id, "CANCELLED");
    const cancelled = await getStats(admin.token);
    expect(cancelled.pendingOrders).toBe(start.pendingOrders);
    expect(cancelled.totalRevenue).toBe(start.totalRevenue);
    expect(await stockOf(shoe)).toBe(5);
    expect(await stockOf(socks)).toBe(20);
  });

  it("PROCESSING, SHIPPED and DELIVERED count as revenue; back to PENDING does not", async () => {
    const shoe = await stockedProduct(4500, 10);
    const order = await placeOrder(customer.token, [{ productId: shoe, quantity: 1 }]);
    const start = await getStats(admin.token);
    const withOrder = addRupees(start.totalRevenue, 4500);
    for (const status of ["PROCESSING", "SHIPPED", "DELIVERED"] as const) {
      await setStatus(admin.token, order.id, status);
      const stats = await getStats(admin.token);
      expect(stats.totalRevenue, status).toBe(withOrder);
      expect(stats.pendingOrders, status).toBe(start.pendingOrders - 1);
    }
    await setStatus(admin.token, order.id, "PENDING");
    const reopened = await getStats(admin.token);
    expect(reopened.totalRevenue).toBe(start.totalRevenue);
    expect(reopened.pendingOrders).toBe(start.pendingOrders);
  });

  it("an order with a deleted product keeps its revenue (the lines keep their prices)", async () => {
    const shoe = await stockedProduct(2000, 4);
    const order = await placeOrder(customer.token, [{ productId: shoe, quantity: 2 }]);
    await setStatus(admin.token, order.id, "CONFIRMED");
    const before = await getStats(admin.token);
    await testEnv.DB.prepare("DELETE FROM products WHERE id = ?").bind(shoe).run();
    const after = await getStats(admin.token);
    expect(after.totalRevenue).toBe(before.totalRevenue);
    expect(after.totalProducts).toBe(before.totalProducts - 1);
  });

  it("always agrees with D1 after all of the above", async () => {
    const stats = await getStats(admin.token);
    const real = await realCounts();
    expect(stats).toEqual({ totalProducts: real.products, totalUsers: real.users, pendingOrders: real.pending, totalRevenue: real.revenueCents / 100 });
  });
});

describe("/admin/dashboard", () => {
  it("shows the same figures: products, users, pending orders and the revenue as 'LKR 12,345.00'", async () => {
    const shoe = await stockedProduct(12345, 3);
    const order = await placeOrder(customer.token, [{ productId: shoe, quantity: 1 }]);
    await setStatus(admin.token, order.id, "CONFIRMED");
    await placeOrder(customer.token, [{ productId: shoe, quantity: 1 }]); // one more pending
    const stats = await getStats(admin.token);
    const text = visibleText(await screenHtml("/admin/dashboard", admin.cookie));
    const lkr = `LKR ${stats.totalRevenue.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    expect(text).toMatch(new RegExp(`data-testid="stat-total-revenue"[^>]*>${lkr.replace(/[.]/g, "\\.")}<`));
    expect(text).toMatch(new RegExp(`data-testid="stat-pending-orders"[^>]*>${stats.pendingOrders}<`));
    expect(text).toMatch(new RegExp(`data-testid="stat-total-products"[^>]*>${stats.totalProducts.toLocaleString("en-US")}<`));
    expect(text).toMatch(new RegExp(`data-testid="stat-total-users"[^>]*>${stats.totalUsers.toLocaleString("en-US")}<`));
    expect(text).toContain(`${stats.pendingOrders} pending`);
  });

  it("links to /add_product, /admin/users and /admin/orders", async () => {
    const html = await screenHtml("/admin/dashboard", admin.cookie);
    for (const path of ["/add_product", "/admin/users", "/admin/orders"]) expect(html).toContain(`href="${path}"`);
  });
});
