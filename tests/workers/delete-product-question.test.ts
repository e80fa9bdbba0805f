import { beforeAll, describe, expect, it } from "vitest";

import { visibleText } from "./catalogue-helpers";
import { call } from "./helpers";
import { type Account, newAdmin, newCustomer, placeOrder, product } from "./order-helpers";

// Owner QA: deleting a product said nothing of the orders still on their way that hold it, and reopening one of them
// once cancelled later failed with "is no longer sold". The admin's question now names them.

let admin: Account;
let customer: Account;

beforeAll(async () => {
  [admin, customer] = await Promise.all([newAdmin(), newCustomer("Delete Question")]);
});

/** The question the product page asks before deleting (?delete, the form without JavaScript). */
async function question(productId: number, cookie?: string): Promise<string | undefined> {
  const response = await call(`/product/${productId}?delete`, { headers: cookie ? { Cookie: cookie } : {} });
  expect(response.status).toBe(200);
  return visibleText(await response.text()).match(/Delete "[^"]*"\?[^<]*This cannot be undone\./)?.[0];
}

describe("the admin's question before deleting a product", () => {
  it("names the open orders holding it, and only those", async () => {
    const productId = await product({ name: "Question Loafer", stockQuantity: 10 });
    expect(await question(productId, admin.cookie)).toBe('Delete "Question Loafer"? This cannot be undone.');

    const first = await placeOrder(customer.token, [{ productId, quantity: 1 }]);
    // The sentence agrees with its count: one order keeps its lines; several keep theirs.
    expect(await question(productId, admin.cookie)).toBe('Delete "Question Loafer"? It is in 1 open order: it keeps its lines, but once cancelled it cannot be reopened. This cannot be undone.');

    // Three orders, of which one delivered and one cancelled: one is still open.
    const second = await placeOrder(customer.token, [{ productId, quantity: 2 }]);
    await placeOrder(customer.token, [{ productId, quantity: 1 }]);
    expect(await question(productId, admin.cookie)).toBe('Delete "Question Loafer"? It is in 3 open orders: they keep their lines, but a cancelled one cannot be reopened. This cannot be undone.');
    for (const [id, status] of [
      [first.id, "DELIVERED"],
      [second.id, "CANCELLED"],
    ] as const) {
      const moved = await call(`/api/orders/admin/${id}/status?status=${status}&notify=false`, { method: "PUT", headers: admin.auth });
      expect(moved.status).toBe(200);
    }
    expect(await question(productId, admin.cookie)).toContain("It is in 1 open order:");
  });

  it("is asked of admins only: a customer's page has no question nor count", async () => {
    const productId = await product({ name: "Question Sandal", stockQuantity: 3 });
    await placeOrder(customer.token, [{ productId, quantity: 1 }]);
    expect(await question(productId, customer.cookie)).toBeUndefined();
  });
});
