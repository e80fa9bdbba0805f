import { beforeAll, describe, expect, it } from "vitest";

import { expectApiError, onlySizeOf, tag } from "./catalogue-helpers";
import { paddedPng, sameBytes } from "./fixtures/images";
import { authHeader, call, testEnv } from "./helpers";
import {
  type Account,
  CUT_OFF_SLIPS,
  JPEG_1X1,
  PDF_BYTES,
  PDF_TRAILING_WHITESPACE,
  SLIPS_WITH_MORE_AFTER_THE_END,
  PNG_1X1,
  SLIP_MISSING,
  SLIP_SIZE,
  SLIP_TYPE,
  bytesOf,
  cartOk,
  cartRows,
  countOrders,
  fakePng,
  insufficientStock,
  jpeg,
  newCustomer,
  type Order,
  orderBody,
  orderForm,
  pdf,
  placeOrder,
  postOrder,
  product,
  slipKeyOf,
  slipKeys,
  stockOf,
} from "./order-helpers";

// POST /api/orders: the order, the stock taken, the cart emptied and the slip kept, all or nothing; and every refusal.

const t = tag();
let customer: Account;

beforeAll(async () => {
  customer = await newCustomer("Order Place Customer");
});

/** Nothing at all may change on a refused order: orders, stock, the slips in R2, the customer's cart. */
async function expectNothingChanged(productId: number, stock: number, run: () => Promise<void>) {
  const ordersBefore = await countOrders();
  const slipsBefore = await slipKeys();
  const cartBefore = await cartRows(customer.id);
  await run();
  expect(await countOrders()).toBe(ordersBefore);
  expect(await stockOf(productId)).toBe(stock);
  expect(await slipKeys()).toEqual(slipsBefore);
  expect(await cartRows(customer.id)).toEqual(cartBefore);
}

describe("POST /api/orders, success", () => {
  let order: Order;
  let shoe: number;
  let sock: number;
  let shoeName: string;

  beforeAll(async () => {
    shoeName = `Order Shoe ${t}`;
    shoe = await product({ name: shoeName, price: 12500, stockQuantity: 10 });
    sock = await product({ name: `Order Sock ${t}`, price: 499.5, stockQuantity: 4, category: "Accessories" });
    await cartOk("POST", `/add?productId=${shoe}&quantity=2`, customer.token);
    await cartOk("POST", `/add?productId=${sock}`, customer.token);
    const response = await postOrder(
      orderForm(
        orderBody(
          [
            // Tampered names and prices: the catalogue decides them.
            { productId: shoe, quantity: 2, productName: "Free shoe", price: 1 },
            { productId: sock, quantity: 3, productName: "Free sock", price: 1 },
          ],
          { customerName: "  Kasun Silva  ", customerEmail: " kasun@example.com ", totalAmount: 2 },
        ),
        { bytes: PNG_1X1, name: "slip.pdf", type: "application/pdf" }, // a PNG under a PDF's name and type
      ),
      customer.token,
    );
    expect(response.status, await response.clone().text()).toBe(201);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    order = (await response.json()) as Order;
  });

  it("answers the order with status PENDING and the trimmed customer fields", () => {
    expect(order).toMatchObject({
      customerName: "Kasun Silva",
      customerEmail: "kasun@example.com",
      customerPhone: "0771234567",
      shippingAddress: "45 Kandy Road, Kiribathgoda",
      status: "PENDING",
      hasBankSlip: true,
    });
    expect(order.id).toBeGreaterThan(0);
    expect(new Date(order.orderDate).toISOString()).toBe(order.orderDate);
    expect(Math.abs(Date.now() - Date.parse(order.orderDate))).toBeLessThan(5 * 60_000);
  });

  it("takes names, prices and the total from the catalogue, not from the client", async () => {
    expect(order.orderItems).toEqual([
      { productId: shoe, productName: shoeName, sizeId: await onlySizeOf(shoe), sizeLabel: "One size", quantity: 2, price: 12500, subtotal: 25000 },
      { productId: sock, productName: `Order Sock ${t}`, sizeId: await onlySizeOf(sock), sizeLabel: "One size", quantity: 3, price: 499.5, subtotal: 1498.5 },
    ]);
    expect(order.totalAmount).toBe(26498.5);
  });

  it("takes the stock off", async () => {
    expect(await stockOf(shoe)).toBe(8);
    expect(await stockOf(sock)).toBe(1);
  });

  it("empties the customer's server cart", async () => {
    expect(await cartRows(customer.id)).toEqual({});
    expect(await cartOk("GET", "", customer.token)).toEqual([]);
  });

  it("has one PENDING history entry by the customer", () => {
    expect(order.statusHistory).toHaveLength(1);
    expect(order.statusHistory[0]).toMatchObject({ status: "PENDING", changedBy: "Order Place Customer" });
  });

  it("keeps the slip in R2 under slips/ and serves it inline with the type its bytes show", async () => {
    const key = await slipKeyOf(order.id);
    expect(key).toMatch(/^slips\/[0-9a-f-]{36}$/);
    expect(await slipKeys()).toContain(key);
    const response = await call(`/api/orders/${order.id}/bank-slip`, { headers: customer.auth });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect(response.headers.get("Content-Disposition")).toMatch(/^inline\b/);
    expect(sameBytes(await bytesOf(response), PNG_1X1)).toBe(true);
  });

  it("appears in GET /api/orders/my", async () => {
    const response = await call("/api/orders/my", { headers: customer.auth });
    expect(response.status).toBe(200);
    const mine = (await response.json()) as Order[];
    expect(mine.find((o) => o.id === order.id)).toEqual(order);
  });
});

describe("POST /api/orders, other slips", () => {
  it("a PDF slip works and is served back as application/pdf", async () => {
    const id = await product({ name: `Order Pdf ${t}`, stockQuantity: 3 });
    const order = await placeOrder(customer.token, [{ productId: id, quantity: 1 }], pdf());
    const response = await call(`/api/orders/${order.id}/bank-slip`, { headers: customer.auth });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toMatch(/^inline\b/);
    expect(sameBytes(await bytesOf(response), PDF_BYTES)).toBe(true);
  });

  it("a PDF with blank lines after its %%EOF works", async () => {
    const id = await product({ name: `Order Pdf Trailing ${t}`, stockQuantity: 3 });
    const order = await placeOrder(customer.token, [{ productId: id, quantity: 1 }], PDF_TRAILING_WHITESPACE);
    const response = await call(`/api/orders/${order.id}/bank-slip`, { headers: customer.auth });
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(await stockOf(id)).toBe(2);
  });

  it.each(Object.entries(SLIPS_WITH_MORE_AFTER_THE_END))("%s works", async (_, slip) => {
    const id = await product({ name: `Order Slip After End ${slip.name} ${t}`, stockQuantity: 3 });
    await placeOrder(customer.token, [{ productId: id, quantity: 1 }], slip);
    expect(await stockOf(id)).toBe(2);
  });

  it("a JPEG slip works and is served back as image/jpeg", async () => {
    const id = await product({ name: `Order Jpeg ${t}`, stockQuantity: 3 });
    const order = await placeOrder(customer.token, [{ productId: id, quantity: 1 }], jpeg("slip.jpg", "application/octet-stream"));
    const response = await call(`/api/orders/${order.id}/bank-slip`, { headers: customer.auth });
    expect(response.headers.get("Content-Type")).toBe("image/jpeg");
    expect(sameBytes(await bytesOf(response), JPEG_1X1)).toBe(true);
  });

  it("two lines of one product are added together against its stock", async () => {
    const id = await product({ name: `Order Twice ${t}`, stockQuantity: 3 });
    await expectNothingChanged(id, 3, async () => {
      const response = await postOrder(orderForm(orderBody([{ productId: id, quantity: 2 }, { productId: id, quantity: 2 }])), customer.token);
      expect((await expectApiError(response, 409)).message).toBe(insufficientStock(`Order Twice ${t}`));
    });
    const order = await placeOrder(customer.token, [{ productId: id, quantity: 2 }, { productId: id, quantity: 1 }]);
    expect(order.orderItems).toMatchObject([{ productId: id, quantity: 3 }]);
    expect(await stockOf(id)).toBe(0);
  });
});

describe("POST /api/orders, refusals change nothing", () => {
  let id: number;
  const name = `Order Refused ${t}`;
  beforeAll(async () => {
    id = await product({ name, stockQuantity: 2 });
  });
  const items = () => [{ productId: id, quantity: 1 }];

  it("a slip whose bytes are text (named slip.png) is 415", async () => {
    await expectNothingChanged(id, 2, async () => {
      const body = await expectApiError(await postOrder(orderForm(orderBody(items()), fakePng()), customer.token), 415);
      expect(body.message).toBe(SLIP_TYPE);
    });
  });

  // Judged by the whole file, not its first bytes: an admin could not open any of these.
  it.each(Object.entries(CUT_OFF_SLIPS))("%s is 415", async (_, slip) => {
    await expectNothingChanged(id, 2, async () => {
      const body = await expectApiError(await postOrder(orderForm(orderBody(items()), slip), customer.token), 415);
      expect(body).toEqual({ message: SLIP_TYPE, fieldErrors: { bankSlip: [SLIP_TYPE] } });
    });
  });

  it("a GIF slip is 415 (JPEG, PNG or PDF only)", async () => {
    const gif = new TextEncoder().encode("GIF89a\x01\x00\x01\x00\x00\x00\x00;");
    await expectNothingChanged(id, 2, async () => {
      const body = await expectApiError(await postOrder(orderForm(orderBody(items()), { bytes: gif, name: "slip.png", type: "image/png" }), customer.token), 415);
      expect(body.message).toBe(SLIP_TYPE);
    });
  });

  it("an 11 MB slip is 413 'File size must be less than 10MB'", async () => {
    await expectNothingChanged(id, 2, async () => {
      const big = { bytes: paddedPng(11 * 1024 * 1024), name: "slip.png", type: "image/png" };
      const body = await expectApiError(await postOrder(orderForm(orderBody(items()), big), customer.token), 413);
      expect(body.message).toBe(SLIP_SIZE);
    });
  });

  it("an 11 MB slip streamed without Content-Length is 413 too", async () => {
    await expectNothingChanged(id, 2, async () => {
      const big = { bytes: paddedPng(11 * 1024 * 1024), name: "slip.png", type: "image/png" };
      const encoded = new Request("http://stride.test/", { method: "POST", body: orderForm(orderBody(items()), big) });
      const bytes = new Uint8Array(await encoded.arrayBuffer());
      let offset = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(offset, offset + 256 * 1024));
          offset += 256 * 1024;
        },
      });
      const headers = { ...authHeader(customer.token), "Content-Type": encoded.headers.get("Content-Type")! };
      const body = await expectApiError(await call("/api/orders", { method: "POST", headers, body: stream }), 413);
      expect(body.message).toBe(SLIP_SIZE);
    });
  });

  it("a slip of exactly 10 MB is 413 'File size must be less than 10MB' (under 10 MB only)", async () => {
    await expectNothingChanged(id, 2, async () => {
      const big = { bytes: paddedPng(10 * 1024 * 1024), name: "slip.png", type: "image/png" };
      const body = await expectApiError(await postOrder(orderForm(orderBody(items()), big), customer.token), 413);
      expect(body.message).toBe(SLIP_SIZE);
    });
  });

  it("an empty slip is 400 'Please upload a bank slip'", async () => {
    await expectNothingChanged(id, 2, async () => {
      const empty = { bytes: new Uint8Array(0), name: "slip.png", type: "image/png" };
      const body = await expectApiError(await postOrder(orderForm(orderBody(items()), empty), customer.token), 400);
      expect(body.message).toBe(SLIP_MISSING);
    });
  });

  it("a missing slip is 400 'Please upload a bank slip'", async () => {
    await expectNothingChanged(id, 2, async () => {
      const body = await expectApiError(await postOrder(orderForm(orderBody(items()), null), customer.token), 400);
      expect(body.message).toBe(SLIP_MISSING);
    });
  });

  it("a slip sent as a text field is 400 'Please upload a bank slip'", async () => {
    await expectNothingChanged(id, 2, async () => {
      const form = orderForm(orderBody(items()), null);
      form.set("bankSlip", "not a file");
      expect((await expectApiError(await postOrder(form, customer.token), 400)).message).toBe(SLIP_MISSING);
    });
  });

  it("unparseable order JSON is 400", async () => {
    await expectNothingChanged(id, 2, async () => {
      await expectApiError(await postOrder(orderForm("{customerName: nope"), customer.token), 400);
    });
  });

  it("a missing order part is 400", async () => {
    await expectNothingChanged(id, 2, async () => {
      await expectApiError(await postOrder(orderForm(undefined), customer.token), 400);
    });
  });

  it("a body that is not multipart is 400", async () => {
    await expectNothingChanged(id, 2, async () => {
      const response = await call("/api/orders", {
        method: "POST",
        headers: { ...customer.auth, "Content-Type": "application/json" },
        body: JSON.stringify(orderBody(items())),
      });
      await expectApiError(response, 400);
    });
  });

  it("empty orderItems is 400", async () => {
    await expectNothingChanged(id, 2, async () => {
      const body = await expectApiError(await postOrder(orderForm(orderBody([])), customer.token), 400);
      expect(body.fieldErrors?.orderItems).toBeDefined();
    });
  });

  it("orderItems missing or not an array is 400", async () => {
    await expectNothingChanged(id, 2, async () => {
      for (const orderItems of [undefined, "x", { productId: id, quantity: 1 }]) {
        await expectApiError(await postOrder(orderForm(orderBody(items(), { orderItems })), customer.token), 400);
      }
    });
  });

  const required: [string, string][] = [
    ["customerName", "Please enter your full name"],
    ["customerEmail", "Please enter your email"],
    ["customerPhone", "Please enter your phone number"],
    ["shippingAddress", "Please enter your shipping address"],
  ];
  for (const [field, message] of required) {
    it(`a missing ${field} is 400 '${message}'`, async () => {
      await expectNothingChanged(id, 2, async () => {
        const order = orderBody(items());
        delete order[field];
        const body = await expectApiError(await postOrder(orderForm(order), customer.token), 400);
        expect(body.message).toBe(message);
        expect(body.fieldErrors?.[field]).toContain(message);
      });
    });

    it(`a blank ${field} (spaces only) is 400 '${message}'`, async () => {
      await expectNothingChanged(id, 2, async () => {
        const body = await expectApiError(await postOrder(orderForm(orderBody(items(), { [field]: "   " })), customer.token), 400);
        expect(body.message).toBe(message);
      });
    });
  }

  it("a customer field of the wrong type (phone as a number) is 400", async () => {
    await expectNothingChanged(id, 2, async () => {
      await expectApiError(await postOrder(orderForm(orderBody(items(), { customerPhone: 771234567 })), customer.token), 400);
    });
  });

  it("a quantity above stock is 409 'Insufficient stock for <name>' and nothing changes", async () => {
    await expectNothingChanged(id, 2, async () => {
      const body = await expectApiError(await postOrder(orderForm(orderBody([{ productId: id, quantity: 3 }])), customer.token), 409);
      expect(body.message).toBe(insufficientStock(name));
    });
  });

  it("one line above stock refuses the whole order, the other lines too", async () => {
    const plenty = await product({ name: `Order Plenty ${t}`, stockQuantity: 50 });
    await expectNothingChanged(id, 2, async () => {
      const response = await postOrder(orderForm(orderBody([{ productId: plenty, quantity: 1 }, { productId: id, quantity: 5 }])), customer.token);
      expect((await expectApiError(response, 409)).message).toBe(insufficientStock(name));
    });
    expect(await stockOf(plenty)).toBe(50);
  });

  it("a price changed since the checkout showed its total (expectedTotal) is 409 and nothing changes; the same total is placed", async () => {
    const priced = await product({ name: `Order Repriced ${t}`, price: 1000, stockQuantity: 3 });
    const mails = async () => (await testEnv.DB.prepare("SELECT count(*) AS n FROM email_outbox").first<{ n: number }>())!.n;
    const mailsBefore = await mails();
    await testEnv.DB.prepare("UPDATE products SET price_cents = 900000 WHERE id = ?").bind(priced).run();
    await expectNothingChanged(priced, 3, async () => {
      const body = await expectApiError(await postOrder(orderForm(orderBody([{ productId: priced, quantity: 2 }], { expectedTotal: 2000 })), customer.token), 409);
      expect(body.message).toBe("Prices have changed since you opened the checkout. Please check the new total and place your order again.");
    });
    expect(await mails()).toBe(mailsBefore);
    const placed = await placeOrder(customer.token, [{ productId: priced, quantity: 2 }], undefined, { expectedTotal: 18000 });
    expect(placed.totalAmount).toBe(18000);
  });

  it("an expectedTotal that is not an amount in cents is 400, and nothing changes", async () => {
    for (const expectedTotal of [-1, 10.005, "1000"]) {
      await expectNothingChanged(id, 2, async () => {
        const body = await expectApiError(await postOrder(orderForm(orderBody(items(), { expectedTotal })), customer.token), 400);
        expect(body.fieldErrors?.expectedTotal?.length, String(expectedTotal)).toBeGreaterThan(0);
      });
    }
  });

  it("a refused order leaves the customer's cart alone", async () => {
    await cartOk("POST", `/add?productId=${id}`, customer.token);
    await expectNothingChanged(id, 2, async () => {
      await expectApiError(await postOrder(orderForm(orderBody([{ productId: id, quantity: 3 }])), customer.token), 409);
    });
    expect(await cartRows(customer.id)).toEqual({ [id]: 1 });
    await cartOk("DELETE", "/clear", customer.token);
  });

  it("an unavailable product is 409 '<name> is no longer available' even with stock (not 'Insufficient stock')", async () => {
    const hidden = await product({ name: `Order Hidden ${t}`, stockQuantity: 5, productAvailable: false });
    await expectNothingChanged(hidden, 5, async () => {
      const body = await expectApiError(await postOrder(orderForm(orderBody([{ productId: hidden, quantity: 1 }])), customer.token), 409);
      expect(body.message).toBe(`Order Hidden ${t} is no longer available`);
    });
  });

  const badItems: [string, unknown][] = [
    ['productId "5" (a string)', { productId: "5", quantity: 1 }],
    ['quantity "1" (a string)', { productId: 1, quantity: "1" }],
    ["quantity 0", { productId: 1, quantity: 0 }],
    ["quantity -1", { productId: 1, quantity: -1 }],
    ["quantity 1.5", { productId: 1, quantity: 1.5 }],
    ["productId 0", { productId: 0, quantity: 1 }],
    ["no productId", { quantity: 1 }],
  ];
  for (const [what, item] of badItems) {
    it(`an item with ${what} is 400`, async () => {
      await expectNothingChanged(id, 2, async () => {
        const line = JSON.parse(JSON.stringify(item).replace('"productId":1', `"productId":${id}`));
        await expectApiError(await postOrder(orderForm(orderBody([line])), customer.token), 400);
      });
    });
  }

  it("an unknown product is 404 (no such resource, as for the cart), naming the line", async () => {
    await expectNothingChanged(id, 2, async () => {
      const body = await expectApiError(await postOrder(orderForm(orderBody([{ productId: 987654, quantity: 1 }])), customer.token), 404);
      expect(body.fieldErrors?.["orderItems.0.productId"]).toEqual(["Product 987654 does not exist"]);
    });
  });

  it("a quantity far above stock is 409 'Insufficient stock', however large", async () => {
    for (const quantity of [10_001, 1_000_000, Number.MAX_SAFE_INTEGER]) {
      await expectNothingChanged(id, 2, async () => {
        const body = await expectApiError(await postOrder(orderForm(orderBody([{ productId: id, quantity }])), customer.token), 409);
        expect(body.message, String(quantity)).toMatch(/^Insufficient stock for /);
      });
    }
  });

  it("a name and a price sent with a line are ignored whatever they hold (null, text, a wrong price)", async () => {
    const own = await product({ name: `Order Ignored Fields ${t}`, price: 4990, stockQuantity: 3 });
    const response = await postOrder(orderForm(orderBody([{ productId: own, quantity: 1, productName: null, price: "1" }])), customer.token);
    expect(response.status).toBe(201);
    const order = (await response.json()) as Order;
    expect(order.orderItems[0]).toMatchObject({ productName: `Order Ignored Fields ${t}`, price: 4990 });
    expect(await stockOf(own)).toBe(2);
  });

  it("a visitor is 401", async () => {
    await expectNothingChanged(id, 2, async () => {
      const body = await expectApiError(await postOrder(orderForm(orderBody(items()))), 401);
      expect(body.message).toMatch(/token/i);
    });
  });

  it("a tampered token is 401", async () => {
    await expectNothingChanged(id, 2, async () => {
      const response = await call("/api/orders", { method: "POST", body: orderForm(orderBody(items())), headers: authHeader(`${customer.token}x`) });
      expect((await expectApiError(response, 401)).message).toMatch(/token/i);
    });
  });
});
