import { beforeAll, describe, expect, it } from "vitest";

import { tag } from "./catalogue-helpers";
import { testEnv } from "./helpers";
import { type Account, countOrders, insufficientStock, newCustomer, orderBody, orderForm, postOrder, product, slipKeys, stockOf } from "./order-helpers";

// Overselling: many customers order the last pairs at the same moment. The stock CHECK in the order's batch decides;
// exactly the stock's worth of orders succeed, every other one is 409 and leaves no order and no slip behind.
// In its own file, so its storage (D1, R2) holds nothing but what these tests create.

const t = tag();
let customers: Account[];

beforeAll(async () => {
  // Registration hashes with PBKDF2 (slow): four customers, five orders each.
  customers = await Promise.all([1, 2, 3, 4].map((n) => newCustomer(`Rush Customer ${n}`)));
});

/** Sends `count` orders of one unit each, all at once, spread over the customers. */
function rush(productId: number, count: number): Promise<Response[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => postOrder(orderForm(orderBody([{ productId, quantity: 1 }])), customers[i % customers.length].token)),
  );
}

async function slipsOfOrders(productId: number): Promise<string[]> {
  const { results } = await testEnv.DB.prepare(
    "SELECT o.bank_slip_key AS k FROM orders o WHERE o.id IN (SELECT order_id FROM order_items WHERE product_id = ?) ORDER BY k",
  )
    .bind(productId)
    .all<{ k: string }>();
  return results.map((row) => row.k);
}

describe("20 orders at once for a product with stock 5", () => {
  it("exactly 5 succeed, 15 are 409, stock ends at 0, 5 orders and 5 slips exist", async () => {
    const name = `Last Pairs ${t}`;
    const id = await product({ name, stockQuantity: 5 });
    const slipsBefore = await slipKeys();
    const ordersBefore = await countOrders();

    const responses = await rush(id, 20);
    const statuses = responses.map((response) => response.status);
    const bodies = await Promise.all(responses.map((response) => response.json() as Promise<{ message?: string; id?: number; status?: string }>));

    expect(statuses.filter((s) => s === 201), JSON.stringify(statuses)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409), JSON.stringify(statuses)).toHaveLength(15);
    for (const [i, body] of bodies.entries()) {
      if (statuses[i] === 201) expect(body.status).toBe("PENDING");
      else expect(body.message).toBe(insufficientStock(name));
    }

    expect(await stockOf(id)).toBe(0);
    expect(await countOrders(id)).toBe(5);
    expect(await countOrders()).toBe(ordersBefore + 5);

    // The slips in R2: exactly the 5 orders' slips are new; every refused order's slip was removed again.
    const slipsAfter = await slipKeys();
    const added = slipsAfter.filter((key) => !slipsBefore.includes(key)).sort();
    expect(added).toHaveLength(5);
    expect(added).toEqual(await slipsOfOrders(id));

    // Each placed order's id is real and each holds one unit.
    const placedIds = bodies.filter((_, i) => statuses[i] === 201).map((body) => body.id);
    expect(new Set(placedIds).size).toBe(5);
    const { results } = await testEnv.DB.prepare("SELECT sum(quantity) AS q FROM order_items WHERE product_id = ?").bind(id).all<{ q: number }>();
    expect(results[0].q).toBe(5);
  });

  it("a rush of orders of two units each on stock 5 never oversells", async () => {
    const id = await product({ name: `Two Each ${t}`, stockQuantity: 5 });
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => postOrder(orderForm(orderBody([{ productId: id, quantity: 2 }])), customers[i % customers.length].token)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((s) => s === 201), JSON.stringify(statuses)).toHaveLength(2);
    expect(statuses.filter((s) => s === 409)).toHaveLength(6);
    expect(await stockOf(id)).toBe(1);
    expect(await countOrders(id)).toBe(2);
    expect(await slipsOfOrders(id)).toHaveLength(2);
  });

  it("no slip in R2 is without its order, nor an order without its slip", async () => {
    const { results } = await testEnv.DB.prepare("SELECT bank_slip_key AS k FROM orders").all<{ k: string }>();
    expect((await slipKeys()).sort()).toEqual(results.map((row) => row.k).sort());
  });
});

describe("20 orders at once for the last 5 pairs of one size", () => {
  it("exactly 5 succeed; the other sizes are untouched", async () => {
    const name = `Last EU 42 ${t}`;
    const id = await product({ name, category: "Gents", stockQuantity: 0 });
    // insertProduct gave it a "One size": make it a shoe with EU 41 (8 pairs) and EU 42 (the last 5).
    await testEnv.DB.prepare("UPDATE product_sizes SET label = 'EU 41', stock_quantity = 8 WHERE product_id = ?").bind(id).run();
    const size42 = await testEnv.DB.prepare("INSERT INTO product_sizes (product_id, label, position, stock_quantity) VALUES (?, 'EU 42', 1, 5) RETURNING id")
      .bind(id)
      .first<{ id: number }>();
    expect(await stockOf(id)).toBe(13);

    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postOrder(orderForm(orderBody([{ productId: id, sizeId: size42!.id, quantity: 1 }])), customers[i % customers.length].token)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((s) => s === 201), JSON.stringify(statuses)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409), JSON.stringify(statuses)).toHaveLength(15);
    for (const [i, response] of responses.entries()) {
      if (statuses[i] === 409) expect(((await response.json()) as { message: string }).message).toBe(insufficientStock(`${name} (EU 42)`));
    }
    const sizes = await testEnv.DB.prepare("SELECT label, stock_quantity AS s FROM product_sizes WHERE product_id = ? ORDER BY position").bind(id).all<{ label: string; s: number }>();
    expect(sizes.results).toEqual([
      { label: "EU 41", s: 8 },
      { label: "EU 42", s: 0 },
    ]);
    expect(await stockOf(id)).toBe(8);
    expect(await countOrders(id)).toBe(5);
    expect(await slipsOfOrders(id)).toHaveLength(5);
  });
});
