import { beforeAll, describe, expect, it } from "vitest";

import { tag, visibleText } from "./catalogue-helpers";
import { paddedPng, sameBytes } from "./fixtures/images";
import { ORIGIN, call, testEnv } from "./helpers";
import {
  type Account,
  CUT_OFF_SLIPS,
  PNG_1X1,
  SLIP_MISSING,
  SLIP_SIZE,
  SLIP_TYPE,
  bytesOf,
  cartOk,
  cartRows,
  checkoutForm,
  countOrders,
  fakePng,
  newAdmin,
  newCustomer,
  type Order,
  pdf,
  png,
  placeOrder,
  postCheckout,
  product,
  setStock,
  slipKeys,
  stockOf,
} from "./order-helpers";

// The customer's order screens (/orders, /orders/{id}) and the checkout without JavaScript (the cart page's form
// posting intent=checkout to /cart?checkout).

const t = tag();
let alice: Account;
let bob: Account;
let admin: Account;
let shoe: number;
const shoeName = `Screen Order Shoe ${t}`;

beforeAll(async () => {
  [alice, bob, admin] = await Promise.all([newCustomer("Alice Screens"), newCustomer("Bob Screens"), newAdmin()]);
  shoe = await product({ name: shoeName, price: 9999, stockQuantity: 50 });
});

async function page(path: string, cookie?: string) {
  const response = await call(path, { headers: cookie ? { Cookie: cookie } : {} });
  return { status: response.status, location: response.headers.get("Location"), text: visibleText(await response.text()) };
}

describe("/orders (My Orders)", () => {
  it("requires a login: a visitor goes to /login?redirect=%2Forders", async () => {
    const { status, location } = await page("/orders");
    expect(status).toBe(302);
    expect(location).toBe("/login?redirect=%2Forders");
  });

  it("a customer without orders is told so", async () => {
    const { status, text } = await page("/orders", admin.cookie);
    expect(status).toBe(200);
    expect(text).toContain("My Orders");
    expect(text).toContain("You have no orders yet");
  });

  it("lists only the customer's own orders, newest first, with their status", async () => {
    const first = await placeOrder(alice.token, [{ productId: shoe, quantity: 1 }]);
    const second = await placeOrder(alice.token, [{ productId: shoe, quantity: 2 }]);
    const bobs = await placeOrder(bob.token, [{ productId: shoe, quantity: 1 }]);
    const { status, text } = await page("/orders", alice.cookie);
    expect(status).toBe(200);
    expect(text).toContain(`Order #${first.id}`);
    expect(text).toContain(`Order #${second.id}`);
    expect(text).not.toContain(`Order #${bobs.id}<`);
    expect(text).not.toMatch(new RegExp(`Order #${bobs.id}\\b`));
    expect(text.indexOf(`Order #${second.id}`)).toBeLessThan(text.indexOf(`Order #${first.id}`));
    expect(text).toContain("PENDING");
    expect(text).toContain(shoeName);
  });
});

describe("/orders/{id}", () => {
  let order: Order;
  beforeAll(async () => {
    order = await placeOrder(alice.token, [{ productId: shoe, quantity: 1 }], undefined, { shippingAddress: "7 Temple Road, Kandy" });
  });

  it("shows the customer's order with its items, delivery details and status history", async () => {
    const { status, text } = await page(`/orders/${order.id}`, alice.cookie);
    expect(status).toBe(200);
    expect(text).toContain(`Order #${order.id}`);
    expect(text).toContain(shoeName);
    expect(text).toContain("7 Temple Road, Kandy");
    expect(text).toContain("Status history");
    expect(text).toContain("PENDING");
    expect(text).toContain(`/api/orders/${order.id}/bank-slip`);
    expect(text).not.toContain("Thank you! Your order is placed");
  });

  it("?placed=1 adds the thank-you message", async () => {
    const { text } = await page(`/orders/${order.id}?placed=1`, alice.cookie);
    expect(text).toContain("Thank you! Your order is placed and pending payment verification.");
  });

  it("shows every status change in the history", async () => {
    const changed = await call(`/api/orders/admin/${order.id}/status?status=CONFIRMED`, { method: "PUT", headers: admin.auth });
    expect(changed.status).toBe(200);
    const { text } = await page(`/orders/${order.id}`, alice.cookie);
    expect(text).toContain("CONFIRMED");
    expect(text).toContain("Admin Amara");
  });

  it("another customer's order is 404, like a missing one", async () => {
    const { status, text } = await page(`/orders/${order.id}`, bob.cookie);
    expect(status).toBe(404);
    expect(text).not.toContain("7 Temple Road, Kandy");
    expect(text).not.toContain(shoeName);
  });

  it("a missing order and an id that is not a positive integer are 404", async () => {
    for (const id of ["987654", "abc", "0", "-1", "1e3"]) {
      expect((await page(`/orders/${id}`, alice.cookie)).status, id).toBe(404);
    }
  });

  it("a visitor goes to the login page, with the way back, whatever the id", async () => {
    for (const id of [String(order.id), "987654", "abc"]) {
      const { status, location } = await page(`/orders/${id}`);
      expect(status, id).toBe(302);
      expect(location, id).toBe(`/login?redirect=${encodeURIComponent(`/orders/${id}`)}`);
    }
  });
});

describe("checkout without JavaScript (POST /cart?checkout, intent=checkout)", () => {
  let carol: Account;
  beforeAll(async () => {
    carol = await newCustomer("Carol Checkout");
  });

  it("places the order from the saved cart and redirects to /orders/{id}?placed=1", async () => {
    const sock = await product({ name: `Screen Sock ${t}`, price: 750.25, stockQuantity: 5 });
    await cartOk("DELETE", "/clear", carol.token);
    await cartOk("POST", `/add?productId=${shoe}&quantity=2`, carol.token);
    await cartOk("POST", `/add?productId=${sock}`, carol.token);
    const shoeStock = (await stockOf(shoe))!;
    const slipsBefore = await slipKeys();

    const response = await postCheckout(checkoutForm({ customerName: "  Carol Perera  " }), carol.cookie);
    expect(response.status, await response.clone().text()).toBe(302);
    const location = response.headers.get("Location")!;
    expect(location).toMatch(/^\/orders\/\d+\?placed=1$/);
    const id = Number(location.match(/\/orders\/(\d+)/)![1]);

    const orders = (await (await call("/api/orders/my", { headers: carol.auth })).json()) as Order[];
    const order = orders.find((o) => o.id === id)!;
    expect(order).toMatchObject({ status: "PENDING", customerName: "Carol Perera", totalAmount: 2 * 9999 + 750.25, hasBankSlip: true });
    expect(order.orderItems.map((item) => [item.productId, item.quantity])).toEqual([
      [shoe, 2],
      [sock, 1],
    ]);
    expect(await stockOf(shoe)).toBe(shoeStock - 2);
    expect(await stockOf(sock)).toBe(4);
    expect(await cartRows(carol.id)).toEqual({});
    expect((await slipKeys()).length).toBe(slipsBefore.length + 1);

    const slip = await call(`/api/orders/${id}/bank-slip`, { headers: carol.auth });
    expect(slip.headers.get("Content-Type")).toBe("image/png");
    expect(sameBytes(await bytesOf(slip), PNG_1X1)).toBe(true);

    const { status, text } = await page(location, carol.cookie);
    expect(status).toBe(200);
    expect(text).toContain("Thank you! Your order is placed and pending payment verification.");
    expect(text).toContain(`Order #${id}`);
  });

  /** A refused checkout: the status, the message on the page, and nothing placed. Answers the page. */
  async function expectRefused(form: FormData, status: number, message: string, cookie = carol.cookie): Promise<string> {
    const ordersBefore = await countOrders();
    const slipsBefore = await slipKeys();
    const cartBefore = await cartRows(carol.id);
    const stockBefore = await stockOf(shoe);
    const response = await postCheckout(form, cookie);
    const text = visibleText(await response.text());
    expect(response.status, text.slice(0, 300)).toBe(status);
    expect(text).toContain(message);
    expect(await countOrders()).toBe(ordersBefore);
    expect(await slipKeys()).toEqual(slipsBefore);
    expect(await cartRows(carol.id)).toEqual(cartBefore);
    expect(await stockOf(shoe)).toBe(stockBefore);
    return text;
  }

  /**
   * The attributes of the checkout's field named `name`, as the answered page renders it: an input, or a textarea (the
   * shipping address), whose text is its `value`.
   */
  function checkoutField(html: string, name: string): Record<string, string> {
    const input = html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0];
    const textarea = html.match(new RegExp(`(<textarea[^>]*name="${name}"[^>]*>)([^<]*)</textarea>`));
    const tagText = input ?? textarea?.[1];
    expect(tagText, `the ${name} field`).toBeDefined();
    const attributes = Object.fromEntries([...tagText!.matchAll(/([a-zA-Z-]+)(?:="([^"]*)")?/g)].slice(1).map(([, attribute, value]) => [attribute, value ?? ""]));
    return textarea && !input ? { ...attributes, value: textarea[2] } : attributes;
  }

  /** The line under the checkout's field `id`, tied to it by aria-describedby. */
  function fieldError(html: string, id: string): string | undefined {
    if (!checkoutField(html, id)["aria-describedby"]?.split(" ").includes(`${id}-error`)) return undefined;
    return html.match(new RegExp(`<p id="${id}-error"[^>]*>([^<]*)</p>`))?.[1];
  }

  // Carol's profile holds "Carol Checkout", 12 Galle Road, Colombo 03 and 0771234567 (helpers.ts registerBody).
  describe("a refusal shows what was typed, not the profile's values, and asks for a slip that was fine again", () => {
    const typed = { customerName: "Kamala Silva", customerEmail: "kamala@example.com", customerPhone: "", shippingAddress: "12 Temple Rd, Kandy" };
    beforeAll(async () => {
      await cartOk("DELETE", "/clear", carol.token);
      await cartOk("POST", `/add?productId=${shoe}`, carol.token);
    });

    it("a blank phone: the typed name, e-mail and address come back, the phone stays blank, and the slip is asked for again", async () => {
      const html = await expectRefused(checkoutForm(typed, png("my-slip.png")), 400, "Please enter your phone number");
      expect(checkoutField(html, "customerName").value).toBe("Kamala Silva");
      expect(checkoutField(html, "customerEmail").value).toBe("kamala@example.com");
      expect(checkoutField(html, "shippingAddress").value).toBe("12 Temple Rd, Kandy");
      expect(checkoutField(html, "customerPhone").value ?? "").toBe("");
      expect(html).not.toMatch(/value="(0771234567|12 Galle Road, Colombo 03|Carol Checkout)"/);
      expect(fieldError(html, "customerPhone")).toBe("Please enter your phone number");
      // No browser keeps a chosen file across a page load: the slip's field says it must be chosen again, by its name.
      expect(fieldError(html, "bankSlip")).toBe("Please choose your bank slip (my-slip.png) again: a chosen file does not stay when the page reloads");
      expect(checkoutField(html, "bankSlip")["aria-invalid"]).toBe("true");
    });

    it("a blank name and no slip: both said at once, each under its field", async () => {
      const html = await expectRefused(checkoutForm({ ...typed, customerPhone: "0712345678", customerName: " " }, null), 400, "Please enter your full name");
      expect(fieldError(html, "customerName")).toBe("Please enter your full name");
      expect(fieldError(html, "bankSlip")).toBe(SLIP_MISSING);
      expect(checkoutField(html, "customerPhone").value).toBe("0712345678");
      expect(checkoutField(html, "shippingAddress").value).toBe("12 Temple Rd, Kandy");
    });

    it("a slip that is not one, with a blank address: the slip's own message, not the request to choose it again", async () => {
      const html = await expectRefused(checkoutForm({ ...typed, customerPhone: "0712345678", shippingAddress: "" }, fakePng()), 400, "Please enter your shipping address");
      expect(fieldError(html, "bankSlip")).toBe(SLIP_TYPE);
      expect(checkoutField(html, "customerName").value).toBe("Kamala Silva");
    });

    it("refused by the order service (prices changed, 409): the typed values come back, and the slip is asked for again", async () => {
      const html = await expectRefused(checkoutForm({ ...typed, customerPhone: "0712345678", expectedTotal: "1" }, pdf("statement.pdf")), 409, "Prices have changed since you opened the checkout.");
      expect(checkoutField(html, "customerName").value).toBe("Kamala Silva");
      expect(checkoutField(html, "shippingAddress").value).toBe("12 Temple Rd, Kandy");
      expect(checkoutField(html, "customerPhone").value).toBe("0712345678");
      expect(fieldError(html, "bankSlip")).toBe("Please choose your bank slip (statement.pdf) again: a chosen file does not stay when the page reloads");
    });

    it("a long file name is cut short in the message", async () => {
      const name = `${"bank-transfer-receipt-".repeat(5)}.png`;
      const html = await expectRefused(checkoutForm(typed, png(name)), 400, "Please enter your phone number");
      expect(fieldError(html, "bankSlip")).toBe(`Please choose your bank slip (${name.slice(0, 59)}…) again: a chosen file does not stay when the page reloads`);
    });
  });

  describe("refusals", () => {
    beforeAll(async () => {
      await cartOk("DELETE", "/clear", carol.token);
      await cartOk("POST", `/add?productId=${shoe}`, carol.token);
    });

    it("no slip: 400 'Please upload a bank slip'", async () => {
      await expectRefused(checkoutForm({}, null), 400, SLIP_MISSING);
    });

    it("a text file named slip.png: 415", async () => {
      await expectRefused(checkoutForm({}, fakePng()), 415, SLIP_TYPE);
    });

    it.each(Object.entries(CUT_OFF_SLIPS))("%s: 415, and the stock stays", async (_, slip) => {
      const stock = await stockOf(shoe);
      await expectRefused(checkoutForm({}, slip), 415, SLIP_TYPE);
      expect(await stockOf(shoe)).toBe(stock);
    });

    it("an 11 MB slip: 413 'File size must be less than 10MB'", async () => {
      await expectRefused(checkoutForm({}, { bytes: paddedPng(11 * 1024 * 1024), name: "slip.png", type: "image/png" }), 413, SLIP_SIZE);
    });

    const required: [string, string][] = [
      ["customerName", "Please enter your full name"],
      ["customerEmail", "Please enter your email"],
      ["customerPhone", "Please enter your phone number"],
      ["shippingAddress", "Please enter your shipping address"],
    ];
    for (const [field, message] of required) {
      it(`a blank ${field}: 400 '${message}'`, async () => {
        await expectRefused(checkoutForm({ [field]: "  " }), 400, message);
      });
    }

    it("more than the stock (sold meanwhile): 409 'Insufficient stock for <name>'", async () => {
      const scarce = await product({ name: `Screen Scarce ${t}`, stockQuantity: 2 });
      await cartOk("POST", `/add?productId=${scarce}&quantity=2`, carol.token);
      await setStock(scarce, 1);
      await expectRefused(checkoutForm(), 409, `Insufficient stock for Screen Scarce ${t}`);
      expect(await stockOf(scarce)).toBe(1);
      await cartOk("DELETE", `/remove?productId=${scarce}`, carol.token);
    });

    it("a price changed since the checkout was opened (its expectedTotal): 409, the new total asked to be checked", async () => {
      const repriced = await product({ name: `Screen Repriced ${t}`, price: 500, stockQuantity: 4 });
      await cartOk("DELETE", "/clear", carol.token);
      await cartOk("POST", `/add?productId=${repriced}&quantity=2`, carol.token);
      await testEnv.DB.prepare("UPDATE products SET price_cents = 80000 WHERE id = ?").bind(repriced).run();
      await expectRefused(checkoutForm({ expectedTotal: "1000" }), 409, "Prices have changed since you opened the checkout.");
      expect(await stockOf(repriced)).toBe(4);
      // The total shown now is the one placed.
      const placed = await postCheckout(checkoutForm({ expectedTotal: "1600" }), carol.cookie);
      expect(placed.status).toBe(302);
      await cartOk("POST", `/add?productId=${shoe}`, carol.token);
    });

    it("an expectedTotal that is not an amount (abc, 1e3, 0x10): 400, not an order placed without the check", async () => {
      for (const expectedTotal of ["abc", "1e3", "0x10"]) await expectRefused(checkoutForm({ expectedTotal }), 400, "expectedTotal must be a number");
    });

    it("an empty cart: 400 'Your cart is empty'", async () => {
      const dave = await newCustomer("Dave Empty");
      const ordersBefore = await countOrders();
      const response = await postCheckout(checkoutForm(), dave.cookie);
      expect(response.status).toBe(400);
      expect(visibleText(await response.text())).toContain("Your cart is empty");
      expect(await countOrders()).toBe(ordersBefore);
    });

    it("a visitor goes to the login page and nothing is placed", async () => {
      const ordersBefore = await countOrders();
      const response = await postCheckout(checkoutForm());
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/login\?redirect=/);
      expect(await countOrders()).toBe(ordersBefore);
    });

    it("a post from another Origin is refused with 403", async () => {
      const ordersBefore = await countOrders();
      const response = await call(`${ORIGIN}/cart?checkout`, { method: "POST", headers: { Origin: "https://evil.example", Cookie: carol.cookie }, body: checkoutForm() });
      expect(response.status).toBe(403);
      expect(await countOrders()).toBe(ordersBefore);
      expect(await cartRows(carol.id)).toEqual({ [shoe]: 1 });
    });
  });
});
