import { beforeAll, describe, expect, it } from "vitest";

import { expectApiError, tag } from "./catalogue-helpers";
import { authHeader, call } from "./helpers";
import { ABOVE_STOCK, type Account, cartApi, cartOk, cartRows, newAdmin, newCustomer, product, quantities, setStock } from "./order-helpers";

// The server cart through the REST API (API.md, the /cart rows): every row, its refusals, and the stock cap.
// Storage is shared by the tests of this file, so each test works on its own products.

const t = tag();
let customer: Account;
let other: Account;
let admin: Account;

beforeAll(async () => {
  [customer, other, admin] = await Promise.all([newCustomer("Cart Api Customer"), newCustomer("Cart Api Other"), newAdmin()]);
});

/** A new product with the given stock, and an empty cart for the customer. */
async function fresh(stockQuantity = 5, overrides: Parameters<typeof product>[0] = {}): Promise<number> {
  await cartOk("DELETE", "/clear", customer.token);
  return product({ name: `Cart Api Shoe ${t} ${crypto.randomUUID().slice(0, 6)}`, brand: "Kelani", price: 4999.5, stockQuantity, ...overrides });
}

describe("GET /api/cart", () => {
  it("a new customer's cart is []", async () => {
    const fresh = await newCustomer("Cart Api Empty");
    expect(await cartOk("GET", "", fresh.token)).toEqual([]);
  });

  it("returns the lines with API.md's CartLine fields", async () => {
    const id = await fresh(7);
    await cartOk("POST", `/add?productId=${id}&quantity=2`, customer.token);
    const lines = await cartOk("GET", "", customer.token);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ productId: id, brand: "Kelani", unitPrice: 4999.5, quantity: 2, stockQuantity: 7 });
    expect(lines[0].productName).toMatch(/^Cart Api Shoe /);
    for (const field of ["productId", "productName", "brand", "unitPrice", "quantity", "stockQuantity"]) expect(lines[0]).toHaveProperty(field);
  });

  it("one customer never sees another's lines", async () => {
    const id = await fresh();
    await cartOk("POST", `/add?productId=${id}`, customer.token);
    expect((await cartOk("GET", "", other.token)).map((line) => line.productId)).not.toContain(id);
  });
});

describe("POST /api/cart/add", () => {
  it("adds 1 by default and returns the cart", async () => {
    const id = await fresh();
    const lines = await cartOk("POST", `/add?productId=${id}`, customer.token);
    expect(quantities(lines)).toEqual({ [id]: 1 });
    expect(await cartRows(customer.id)).toEqual({ [id]: 1 });
  });

  it("adds the quantity parameter to an existing line", async () => {
    const id = await fresh(10);
    await cartOk("POST", `/add?productId=${id}`, customer.token);
    const lines = await cartOk("POST", `/add?productId=${id}&quantity=3`, customer.token);
    expect(quantities(lines)).toEqual({ [id]: 4 });
  });

  it("up to exactly the stock is allowed; one more is 409 and the line stays", async () => {
    const id = await fresh(3);
    expect(quantities(await cartOk("POST", `/add?productId=${id}&quantity=3`, customer.token))).toEqual({ [id]: 3 });
    const body = await expectApiError(await cartApi("POST", `/add?productId=${id}`, customer.token), 409);
    expect(body.message).toBe(ABOVE_STOCK);
    expect(await cartRows(customer.id)).toEqual({ [id]: 3 });
  });

  it("a first add above stock is 409 and writes nothing", async () => {
    const id = await fresh(2);
    const body = await expectApiError(await cartApi("POST", `/add?productId=${id}&quantity=3`, customer.token), 409);
    expect(body.message).toBe(ABOVE_STOCK);
    expect(await cartRows(customer.id)).toEqual({});
  });

  it("a sold-out product is 409 in API.md's words (1 is above a stock of 0); one taken off sale is 409 too", async () => {
    const soldOut = await fresh(0);
    expect((await expectApiError(await cartApi("POST", `/add?productId=${soldOut}`, customer.token), 409)).message).toBe(ABOVE_STOCK);
    const hidden = await fresh(5, { productAvailable: false });
    expect((await expectApiError(await cartApi("POST", `/add?productId=${hidden}`, customer.token), 409)).message).toBe("This product is out of stock");
    expect(await cartRows(customer.id)).toEqual({});
  });

  it("a quantity of any length above stock is 409, not bad input; an id of any length is no product (404)", async () => {
    const id = await fresh(2);
    for (const quantity of ["99999999999", "9".repeat(40)]) {
      expect((await expectApiError(await cartApi("POST", `/add?productId=${id}&quantity=${quantity}`, customer.token), 409)).message).toBe(ABOVE_STOCK);
      expect((await expectApiError(await cartApi("PUT", `/set?productId=${id}&quantity=${quantity}`, customer.token), 409)).message).toBe(ABOVE_STOCK);
    }
    await expectApiError(await cartApi("POST", `/add?productId=${"9".repeat(40)}`, customer.token), 404);
    expect(await cartRows(customer.id)).toEqual({});
  });

  for (const quantity of ["0", "-1", "abc", "1.5", ""]) {
    it(`quantity ${JSON.stringify(quantity)} is 400`, async () => {
      const id = await fresh();
      const body = await expectApiError(await cartApi("POST", `/add?productId=${id}&quantity=${quantity}`, customer.token), 400);
      expect(body.fieldErrors?.quantity).toBeDefined();
      expect(await cartRows(customer.id)).toEqual({});
    });
  }

  for (const productId of ["abc", "0", "-3", "1.5", ""]) {
    it(`productId ${JSON.stringify(productId)} is 400`, async () => {
      const body = await expectApiError(await cartApi("POST", `/add?productId=${productId}`, customer.token), 400);
      expect(body.fieldErrors?.productId).toBeDefined();
    });
  }

  it("no productId at all is 400", async () => {
    await expectApiError(await cartApi("POST", "/add", customer.token), 400);
  });

  it("an unknown product is 404", async () => {
    await fresh();
    await expectApiError(await cartApi("POST", "/add?productId=987654", customer.token), 404);
    expect(await cartRows(customer.id)).toEqual({});
  });
});

describe("POST /api/cart/add, at the same moment", () => {
  it("ten adds of one unit at once on stock 3: three succeed, seven are 409, the line holds 3", async () => {
    const id = await fresh(3);
    const responses = await Promise.all(Array.from({ length: 10 }, () => cartApi("POST", `/add?productId=${id}`, customer.token)));
    const statuses = responses.map((response) => response.status);
    await Promise.all(responses.map((response) => response.arrayBuffer()));
    expect(statuses.filter((s) => s === 200), JSON.stringify(statuses)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    expect(await cartRows(customer.id)).toEqual({ [id]: 3 });
  });
});

describe("PUT /api/cart/set", () => {
  it("sets the quantity of a line (new or existing)", async () => {
    const id = await fresh(8);
    expect(quantities(await cartOk("PUT", `/set?productId=${id}&quantity=5`, customer.token))).toEqual({ [id]: 5 });
    expect(quantities(await cartOk("PUT", `/set?productId=${id}&quantity=2`, customer.token))).toEqual({ [id]: 2 });
    expect(await cartRows(customer.id)).toEqual({ [id]: 2 });
  });

  it("exactly the stock is allowed; above stock is 409 and the line keeps its quantity", async () => {
    const id = await fresh(4);
    await cartOk("PUT", `/set?productId=${id}&quantity=4`, customer.token);
    const body = await expectApiError(await cartApi("PUT", `/set?productId=${id}&quantity=5`, customer.token), 409);
    expect(body.message).toBe(ABOVE_STOCK);
    expect(await cartRows(customer.id)).toEqual({ [id]: 4 });
  });

  for (const quantity of ["0", "-1", "-20"]) {
    it(`quantity ${quantity} removes the line and keeps the others`, async () => {
      const id = await fresh();
      const keep = await product({ name: `Cart Api Keep ${t}`, stockQuantity: 5 });
      await cartOk("POST", `/add?productId=${id}&quantity=2`, customer.token);
      await cartOk("POST", `/add?productId=${keep}`, customer.token);
      expect(quantities(await cartOk("PUT", `/set?productId=${id}&quantity=${quantity}`, customer.token))).toEqual({ [keep]: 1 });
      expect(await cartRows(customer.id)).toEqual({ [keep]: 1 });
    });
  }

  it("a missing or non-integer quantity is 400", async () => {
    const id = await fresh();
    for (const query of [`productId=${id}`, `productId=${id}&quantity=abc`, `productId=${id}&quantity=2.5`]) {
      await expectApiError(await cartApi("PUT", `/set?${query}`, customer.token), 400);
    }
    expect(await cartRows(customer.id)).toEqual({});
  });

  it("productId abc is 400; an unknown product is 404", async () => {
    await expectApiError(await cartApi("PUT", "/set?productId=abc&quantity=1", customer.token), 400);
    await expectApiError(await cartApi("PUT", "/set?productId=987654&quantity=1", customer.token), 404);
  });
});

describe("DELETE /api/cart/remove and /api/cart/clear", () => {
  it("remove drops the one line and returns the rest", async () => {
    const a = await fresh();
    const b = await product({ name: `Cart Api B ${t}`, stockQuantity: 5 });
    await cartOk("POST", `/add?productId=${a}`, customer.token);
    await cartOk("POST", `/add?productId=${b}&quantity=2`, customer.token);
    expect(quantities(await cartOk("DELETE", `/remove?productId=${a}`, customer.token))).toEqual({ [b]: 2 });
    expect(await cartRows(customer.id)).toEqual({ [b]: 2 });
  });

  it("removing a product that is not in the cart is a harmless 200", async () => {
    const a = await fresh();
    await cartOk("POST", `/add?productId=${a}`, customer.token);
    expect(quantities(await cartOk("DELETE", "/remove?productId=987654", customer.token))).toEqual({ [a]: 1 });
  });

  it("remove with productId abc or none is 400", async () => {
    await expectApiError(await cartApi("DELETE", "/remove?productId=abc", customer.token), 400);
    await expectApiError(await cartApi("DELETE", "/remove", customer.token), 400);
  });

  it("clear answers [] and empties this customer's cart only", async () => {
    const a = await fresh();
    await cartOk("POST", `/add?productId=${a}&quantity=2`, customer.token);
    await cartOk("POST", `/add?productId=${a}`, other.token);
    const response = await cartApi("DELETE", "/clear", customer.token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
    expect(await cartRows(customer.id)).toEqual({});
    expect((await cartRows(other.id))[a]).toBe(1);
    await cartOk("DELETE", "/clear", other.token);
  });
});

describe("POST /api/cart/merge", () => {
  it("adds guest quantities to existing lines, creates new ones, caps at stock, skips unknown products", async () => {
    const existing = await fresh(10);
    const capped = await product({ name: `Cart Api Capped ${t}`, stockQuantity: 3 });
    const added = await product({ name: `Cart Api Added ${t}`, stockQuantity: 10 });
    await cartOk("POST", `/add?productId=${existing}&quantity=2`, customer.token);
    await cartOk("POST", `/add?productId=${capped}&quantity=2`, customer.token);

    const lines = await cartOk("POST", "/merge", customer.token, {
      items: [
        { productId: existing, quantity: 3 },
        { productId: capped, quantity: 5 },
        { productId: added, quantity: 4 },
        { productId: 987654, quantity: 1 },
      ],
    });
    expect(quantities(lines)).toEqual({ [existing]: 5, [capped]: 3, [added]: 4 });
    expect(await cartRows(customer.id)).toEqual({ [existing]: 5, [capped]: 3, [added]: 4 });
  });

  it("a new line above stock is capped at the stock, however large the quantity", async () => {
    const id = await fresh(2);
    expect(quantities(await cartOk("POST", "/merge", customer.token, { items: [{ productId: id, quantity: 9 }] }))).toEqual({ [id]: 2 });
    await cartOk("DELETE", "/clear", customer.token);
    expect(quantities(await cartOk("POST", "/merge", customer.token, { items: [{ productId: id, quantity: 100_000 }] }))).toEqual({ [id]: 2 });
  });

  it("sold-out and unavailable products are skipped", async () => {
    const soldOut = await fresh(0);
    const hidden = await product({ name: `Cart Api Hidden ${t}`, stockQuantity: 5, productAvailable: false });
    const ok = await product({ name: `Cart Api Ok ${t}`, stockQuantity: 5 });
    const lines = await cartOk("POST", "/merge", customer.token, {
      items: [
        { productId: soldOut, quantity: 1 },
        { productId: hidden, quantity: 1 },
        { productId: ok, quantity: 1 },
      ],
    });
    expect(quantities(lines)).toEqual({ [ok]: 1 });
  });

  it("an empty list changes nothing", async () => {
    const id = await fresh();
    await cartOk("POST", `/add?productId=${id}`, customer.token);
    expect(quantities(await cartOk("POST", "/merge", customer.token, { items: [] }))).toEqual({ [id]: 1 });
  });

  it("a merge of 60 lines (the schema allows 100) keeps every line, none silently dropped", async () => {
    await fresh();
    const ids: number[] = [];
    for (let i = 0; i < 60; i++) ids.push(await product({ name: `Cart Api Many ${t} ${i}`, stockQuantity: 5 }));
    const lines = await cartOk("POST", "/merge", customer.token, { items: ids.map((productId) => ({ productId, quantity: 1 })) });
    expect(lines).toHaveLength(60);
    expect(Object.keys(await cartRows(customer.id))).toHaveLength(60);
    await cartOk("DELETE", "/clear", customer.token);
  });

  it("more than 100 lines is 400", async () => {
    const id = await fresh();
    const items = Array.from({ length: 101 }, () => ({ productId: id, quantity: 1 }));
    await expectApiError(await cartApi("POST", "/merge", customer.token, { items }), 400);
    expect(await cartRows(customer.id)).toEqual({});
  });

  const badBodies: [string, unknown][] = [
    ["malformed JSON", "{not json"],
    ["no items", {}],
    ["items not an array", { items: "x" }],
    ["quantity as a string", { items: [{ productId: 1, quantity: "2" }] }],
    ["productId as a string", { items: [{ productId: "1", quantity: 2 }] }],
    ["quantity 0", { items: [{ productId: 1, quantity: 0 }] }],
    ["fractional quantity", { items: [{ productId: 1, quantity: 1.5 }] }],
  ];
  for (const [what, body] of badBodies) {
    it(`${what} is 400 and changes nothing`, async () => {
      const id = await fresh();
      await cartOk("POST", `/add?productId=${id}`, customer.token);
      const payload = typeof body === "string" ? body : JSON.stringify(body).replace('"productId":1', `"productId":${id}`);
      await expectApiError(await cartApi("POST", "/merge", customer.token, payload), 400);
      expect(await cartRows(customer.id)).toEqual({ [id]: 1 });
    });
  }
});

describe("a visitor is 401 on every cart row", () => {
  const rows: [string, string, unknown?][] = [
    ["GET", ""],
    ["POST", "/add?productId=1"],
    ["PUT", "/set?productId=1&quantity=1"],
    ["DELETE", "/remove?productId=1"],
    ["DELETE", "/clear"],
    ["POST", "/merge", { items: [] }],
  ];
  for (const [method, path, body] of rows) {
    it(`${method} /api/cart${path}`, async () => {
      const error = await expectApiError(await cartApi(method, path, undefined, body), 401);
      expect(error.message).toMatch(/token/i);
    });

    it(`${method} /api/cart${path} with a tampered token`, async () => {
      const bad = `${customer.token.slice(0, -4)}AAAA`;
      const response = await call(`/api/cart${path}`, {
        method,
        headers: { "Content-Type": "application/json", ...authHeader(bad) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const error = await expectApiError(response, 401);
      expect(error.message).toMatch(/token/i);
      expect(error.message).toMatch(/invalid|expired/i);
    });
  }
});

describe("a product deleted from the catalogue", () => {
  it("drops out of every cart", async () => {
    const gone = await fresh(10);
    const stays = await product({ name: `Cart Api Stays ${t}`, stockQuantity: 10 });
    await cartOk("POST", `/add?productId=${gone}&quantity=2`, customer.token);
    await cartOk("POST", `/add?productId=${stays}`, customer.token);
    await cartOk("POST", `/add?productId=${gone}`, other.token);

    const deleted = await call(`/api/product/${gone}`, { method: "DELETE", headers: admin.auth });
    expect(deleted.status).toBe(204);

    expect(quantities(await cartOk("GET", "", customer.token))).toEqual({ [stays]: 1 });
    expect((await cartOk("GET", "", other.token)).map((line) => line.productId)).not.toContain(gone);
    expect(await cartRows(customer.id)).toEqual({ [stays]: 1 });
    // Setting it again is a 404: it no longer exists.
    await expectApiError(await cartApi("PUT", `/set?productId=${gone}&quantity=1`, customer.token), 404);
  });

  it("a cart line shows the product's current stock", async () => {
    const id = await fresh(6);
    await cartOk("POST", `/add?productId=${id}`, customer.token);
    await setStock(id, 4);
    expect((await cartOk("GET", "", customer.token))[0]).toMatchObject({ productId: id, stockQuantity: 4 });
  });
});
