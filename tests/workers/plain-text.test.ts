import { beforeAll, describe, expect, it } from "vitest";

import { countProducts, expectApiError, postMultipartForm, productBody, productMultipart, screenProductForm, sendMultipart, tag, visibleText } from "./catalogue-helpers";
import { apiJson, postForm, registerBody, sessionCookieFor, testEnv, uniqueEmail } from "./helpers";
import { type Account, cartOk, cartRows, checkoutForm, countOrders, newAdmin, newCustomer, orderBody, orderForm, postCheckout, postOrder, product, slipKeys } from "./order-helpers";
import { postReview, putReview } from "./review-helpers";

// Free text is stored as sent, so it must be plain text (app/lib/zod.ts, plainText): no control characters, no
// bidirectional overrides or isolates (they turn text round in the admin's lists and the CSV export), no lone
// surrogates (D1 would keep U+FFFD instead). Multi-line fields also take LF, CR LF and TAB. Every refusal is the API's
// 400 with the field's message, or the screen's message under the field, and nothing is stored.

/** What must be refused in any field, one line or several. */
const REFUSED_ANYWHERE: [string, string][] = [
  ["a NUL", "a\u0000b"],
  ["U+202E RIGHT-TO-LEFT OVERRIDE", "Invoice \u202Efdp.exe"],
  ["a lone surrogate", "a\ud800b"],
  ["an ESC", "a\u001b[31mb"],
];
/** What one-line fields refuse besides: a line break (a header injection's "\r\nBcc:") and a TAB. */
const REFUSED_IN_A_LINE: [string, string][] = [...REFUSED_ANYWHERE, ["CR LF", "a\r\nBcc: x@y.z"], ["a TAB", "a\tb"]];
/** Multi-line fields take LF and CR LF, but not a CR alone or a C1 line break (U+0085 NEXT LINE). */
const REFUSED_IN_LINES: [string, string][] = [...REFUSED_ANYWHERE, ["a lone CR", "a\rb"], ["U+0085", "a\u0085b"]];

/** Sinhala with ZWJ (ශ්‍රී), Tamil, an emoji, accented Latin, Arabic: ordinary names. */
const SINHALA = "ශ්‍රී ලංකා";
const GOOD_NAME = `${SINHALA} தமிழ் José 👟 محمد`;
/** An address as a textarea sends it: CR LF between lines, a TAB inside one. */
const GOOD_ADDRESS = "12 Galle Road\r\nColombo 03\tශ්‍රී ලංකා\nSri Lanka 🇱🇰";

/**
 * JSON text as a client writes it. JSON.stringify writes a lone surrogate as the six characters \ud800 (the text itself
 * stays well formed, so no encoder swaps it for U+FFFD on the way), and the server's JSON.parse makes it one again.
 */
function jsonText(value: unknown): string {
  const text = JSON.stringify(value);
  expect(text).not.toMatch(LONE_SURROGATE);
  return text;
}
const LONE_SURROGATE = /\p{Cs}/u;

function expectLoneSurrogateEscaped(text: string, bad: string) {
  if (bad.includes("\ud800")) expect(text).toContain("\\ud800");
}

/** The API's 400 for a field, with its message. */
async function expectFieldRefused(response: Response, field: string, message: string) {
  const body = await expectApiError(response, 400);
  expect(body.fieldErrors?.[field], JSON.stringify(body)).toEqual([message]);
}

/** A screen's message under its field (Field's `<p id="{field}-error">`). */
function fieldError(html: string, field: string): string | undefined {
  return visibleText(html).match(new RegExp(`<p id="${field}-error"[^>]*>([^<]*)</p>`))?.[1];
}

const userRow = (id: number) => testEnv.DB.prepare("SELECT name, address FROM users WHERE id = ?").bind(id).first<{ name: string; address: string }>();
const userByEmail = (email: string) => testEnv.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first();

describe("POST /api/auth/register", () => {
  for (const [what, bad] of REFUSED_IN_A_LINE) {
    it(`a name with ${what}: 400 'Name must not contain control characters', no account`, async () => {
      const body = registerBody({ name: bad });
      const text = jsonText(body);
      expectLoneSurrogateEscaped(text, bad);
      await expectFieldRefused(await apiJson("POST", "/api/auth/register", text), "name", "Name must not contain control characters");
      expect(await userByEmail(body.email)).toBeNull();
    });
  }
  for (const [what, bad] of REFUSED_IN_LINES) {
    it(`an address with ${what}: 400 'Address must not contain control characters', no account`, async () => {
      const body = registerBody({ address: `12 Galle Road\r\n${bad}` });
      await expectFieldRefused(await apiJson("POST", "/api/auth/register", jsonText(body)), "address", "Address must not contain control characters");
      expect(await userByEmail(body.email)).toBeNull();
    });
  }

  it("Sinhala with ZWJ, Tamil, an emoji, accents and Arabic in the name, and an address of lines with CR LF and a TAB: 201, stored as sent", async () => {
    const response = await apiJson("POST", "/api/auth/register", registerBody({ name: GOOD_NAME, address: GOOD_ADDRESS }));
    expect(response.status, await response.clone().text()).toBe(201);
    const user = (await response.json()) as { id: number; name: string; address: string };
    expect(user).toMatchObject({ name: GOOD_NAME, address: GOOD_ADDRESS });
    expect(await userRow(user.id)).toEqual({ name: GOOD_NAME, address: GOOD_ADDRESS });
  });

  it("ZWNJ and ZWJ alone are kept (Sinhala needs them): other format characters are not refused", async () => {
    const name = "ශ්‌රී\u200D\u200C Perera";
    const response = await apiJson("POST", "/api/auth/register", registerBody({ name }));
    expect(response.status, await response.clone().text()).toBe(201);
    expect(((await response.json()) as { name: string }).name).toBe(name);
  });
});

describe("PUT /api/auth/me", () => {
  let me: Account;
  beforeAll(async () => {
    me = await newCustomer("Plain Priya");
  });
  const put = (body: Record<string, unknown>) => apiJson("PUT", "/api/auth/me", jsonText({ name: "Plain Priya", email: me.email, ...body }), me.auth);

  for (const [what, bad] of REFUSED_IN_A_LINE) {
    it(`a name with ${what}: 400, nothing changed`, async () => {
      const before = await userRow(me.id);
      await expectFieldRefused(await put({ name: bad, address: "Changed Road" }), "name", "Name must not contain control characters");
      expect(await userRow(me.id)).toEqual(before);
    });
  }
  for (const [what, bad] of REFUSED_IN_LINES) {
    it(`an address with ${what}: 400, nothing changed`, async () => {
      const before = await userRow(me.id);
      await expectFieldRefused(await put({ name: "Changed Name", address: bad }), "address", "Address must not contain control characters");
      expect(await userRow(me.id)).toEqual(before);
    });
  }

  it("Sinhala with ZWJ and an emoji in the name and a CR LF address are saved as sent", async () => {
    const name = `${SINHALA} 👟`;
    const response = await put({ name, address: GOOD_ADDRESS });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await userRow(me.id)).toEqual({ name, address: GOOD_ADDRESS });
  });
});

describe("POST /api/orders", () => {
  let buyer: Account;
  let shoe: number;
  beforeAll(async () => {
    buyer = await newCustomer("Plain Buyer");
    shoe = await product({ name: `Plain Order Shoe ${tag()}`, stockQuantity: 50 });
  });
  const send = (overrides: Record<string, unknown>) => postOrder(orderForm(jsonText(orderBody([{ productId: shoe, quantity: 1 }], overrides))), buyer.token);

  for (const [what, bad] of REFUSED_IN_A_LINE) {
    it(`a customerName with ${what}: 400 'Full name must not contain control characters', no order`, async () => {
      const before = { orders: await countOrders(), slips: await slipKeys() };
      await expectFieldRefused(await send({ customerName: bad }), "customerName", "Full name must not contain control characters");
      expect({ orders: await countOrders(), slips: await slipKeys() }).toEqual(before);
    });
  }
  for (const [what, bad] of REFUSED_IN_LINES) {
    it(`a shippingAddress with ${what}: 400 'Shipping address must not contain control characters', no order`, async () => {
      const before = { orders: await countOrders(), slips: await slipKeys() };
      await expectFieldRefused(await send({ shippingAddress: bad }), "shippingAddress", "Shipping address must not contain control characters");
      expect({ orders: await countOrders(), slips: await slipKeys() }).toEqual(before);
    });
  }

  it("Sinhala with ZWJ and an emoji in the name and a CR LF address: 201, stored as sent", async () => {
    const response = await send({ customerName: GOOD_NAME, shippingAddress: GOOD_ADDRESS });
    expect(response.status, await response.clone().text()).toBe(201);
    const { id } = (await response.json()) as { id: number };
    const row = await testEnv.DB.prepare("SELECT customer_name AS name, shipping_address AS address FROM orders WHERE id = ?").bind(id).first();
    expect(row).toEqual({ name: GOOD_NAME, address: GOOD_ADDRESS });
  });
});

describe("POST and PUT /api/product", () => {
  let admin: Account;
  let existing: { id: number; body: ReturnType<typeof productBody> };
  const productRow = (id: number) => testEnv.DB.prepare("SELECT name, brand, description FROM products WHERE id = ?").bind(id).first();
  beforeAll(async () => {
    admin = await newAdmin();
    const body = productBody({ name: `Plain Existing ${tag()}` });
    const response = await sendMultipart("POST", "/api/product", productMultipart(body), admin.token);
    expect(response.status).toBe(201);
    existing = { id: ((await response.json()) as { id: number }).id, body };
  });

  const cases: [field: "name" | "brand" | "description", message: string, refused: [string, string][]][] = [
    ["name", "Name must not contain control characters", REFUSED_IN_A_LINE],
    ["brand", "Brand must not contain control characters", REFUSED_IN_A_LINE],
    ["description", "Description must not contain control characters", REFUSED_IN_LINES],
  ];
  for (const [field, message, refused] of cases) {
    for (const [what, bad] of refused) {
      it(`POST: a ${field} with ${what}: 400 '${message}', no product`, async () => {
        const before = await countProducts();
        const form = productMultipart(jsonText(productBody({ [field]: bad })));
        await expectFieldRefused(await sendMultipart("POST", "/api/product", form, admin.token), field, message);
        expect(await countProducts()).toBe(before);
      });
      it(`PUT: a ${field} with ${what}: 400 '${message}', the product unchanged`, async () => {
        const before = await productRow(existing.id);
        const form = productMultipart(jsonText({ ...existing.body, [field]: bad }), null);
        await expectFieldRefused(await sendMultipart("PUT", `/api/product/${existing.id}`, form, admin.token), field, message);
        expect(await productRow(existing.id)).toEqual(before);
      });
    }
  }

  it("a size label with U+202E or a lone surrogate is refused as its control characters were", async () => {
    for (const bad of ["4\u202E5", "4\ud800"]) {
      const form = productMultipart(jsonText(productBody({ sizes: [{ label: bad, stockQuantity: 1 }] })));
      await expectFieldRefused(await sendMultipart("POST", "/api/product", form, admin.token), "sizes.0.label", "A size's label must not contain control characters");
    }
  });

  it("Sinhala with ZWJ and an emoji in name and brand, and a CR LF description: saved (the description's lines as LF)", async () => {
    const name = `${SINHALA} 👟 ${tag()}`;
    const response = await sendMultipart("PUT", `/api/product/${existing.id}`, productMultipart({ ...existing.body, name, brand: "Café ශ්‍රී", description: "Line one\r\nLine two\twith a tab" }, null), admin.token);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await productRow(existing.id)).toEqual({ name, brand: "Café ශ්‍රී", description: "Line one\nLine two\twith a tab" });
  });
});

describe("POST and PUT /api/reviews", () => {
  let author: Account;
  let productId: number;
  let reviewId: number;
  const MESSAGE = "Comment must not contain control characters";
  beforeAll(async () => {
    author = await newCustomer("Plain Reviewer");
    productId = await product({ name: `Plain Review Shoe ${tag()}` });
    const reviewed = await product({ name: `Plain Reviewed Shoe ${tag()}` });
    const response = await postReview({ productId: reviewed, comment: "Fits well", rating: 4 }, author.token);
    expect(response.status).toBe(201);
    reviewId = ((await response.json()) as { id: number }).id;
  });
  const reviewCount = async () => (await testEnv.DB.prepare("SELECT count(*) AS n FROM reviews WHERE product_id = ?").bind(productId).first<{ n: number }>())!.n;
  const commentOf = async (id: number) => (await testEnv.DB.prepare("SELECT comment FROM reviews WHERE id = ?").bind(id).first<{ comment: string }>())!.comment;

  for (const [what, bad] of REFUSED_IN_LINES) {
    it(`POST: a comment with ${what}: 400 '${MESSAGE}', no review`, async () => {
      const text = jsonText({ productId, comment: bad, rating: 5 });
      expectLoneSurrogateEscaped(text, bad);
      await expectFieldRefused(await postReview(text, author.token), "comment", MESSAGE);
      expect(await reviewCount()).toBe(0);
    });
    it(`PUT: a comment with ${what}: 400, the review unchanged`, async () => {
      await expectFieldRefused(await putReview(reviewId, jsonText({ comment: bad }), author.token), "comment", MESSAGE);
      expect(await commentOf(reviewId)).toBe("Fits well");
    });
  }

  it("a comment of Sinhala with ZWJ, an emoji and CR LF lines is saved", async () => {
    const comment = `${SINHALA} 👍\r\nGreat fit`;
    const response = await postReview({ productId, comment, rating: 5 }, author.token);
    expect(response.status, await response.clone().text()).toBe(201);
    expect(await reviewCount()).toBe(1);
  });
});

// A browser's form can hold no lone surrogate (FormData and URL encoding turn one into U+FFFD before it is sent), so
// the screens are tried with the rest; the schema they share with the API refuses it there.
const SCREEN_REFUSED_IN_A_LINE = REFUSED_IN_A_LINE.filter(([, bad]) => !LONE_SURROGATE.test(bad));
const SCREEN_REFUSED_IN_LINES = REFUSED_IN_LINES.filter(([, bad]) => !LONE_SURROGATE.test(bad));

describe("the register screen", () => {
  const form = (overrides: Record<string, string> = {}) => ({
    name: "Form Person",
    email: uniqueEmail("plain"),
    password: "secret123",
    confirmPassword: "secret123",
    address: "3 Lake Drive, Galle",
    phone: "0771234567",
    ...overrides,
  });

  for (const [what, bad] of SCREEN_REFUSED_IN_A_LINE) {
    it(`a name with ${what}: 400, the message under the name, no account`, async () => {
      const fields = form({ name: bad });
      const response = await postForm("/register", fields);
      expect(response.status).toBe(400);
      expect(fieldError(await response.text(), "name")).toBe("Name must not contain control characters");
      expect(await userByEmail(fields.email)).toBeNull();
    });
  }
  for (const [what, bad] of SCREEN_REFUSED_IN_LINES) {
    it(`an address with ${what}: 400, the message under the address, no account`, async () => {
      const fields = form({ address: bad });
      const response = await postForm("/register", fields);
      expect(response.status).toBe(400);
      expect(fieldError(await response.text(), "address")).toBe("Address must not contain control characters");
      expect(await userByEmail(fields.email)).toBeNull();
    });
  }

  it("Sinhala with ZWJ and an emoji in the name and a CR LF address: registered as typed", async () => {
    const fields = form({ name: `${SINHALA} 👟`, address: GOOD_ADDRESS });
    const response = await postForm("/register", fields);
    expect(response.status, await response.clone().text()).toBe(302);
    const row = await testEnv.DB.prepare("SELECT name, address FROM users WHERE email = ?").bind(fields.email).first();
    expect(row).toEqual({ name: `${SINHALA} 👟`, address: GOOD_ADDRESS });
  });
});

describe("the profile screen", () => {
  let me: Account;
  let cookie: string;
  beforeAll(async () => {
    me = await newCustomer("Profile Plain");
    cookie = await sessionCookieFor(me.email, me.password);
  });
  const form = (overrides: Record<string, string>) => ({ name: "Profile Plain", email: me.email, address: "5 Flower Road", phone: "0771234567", password: "", confirmPassword: "", ...overrides });

  it("a name with U+202E or NUL, an address with NUL: 400, the message under the field, nothing changed", async () => {
    const before = await userRow(me.id);
    for (const [field, bad, message] of [
      ["name", "abc\u202Etxt.exe", "Name must not contain control characters"],
      ["name", "a\u0000b", "Name must not contain control characters"],
      ["address", "a\u0000b", "Address must not contain control characters"],
    ]) {
      const response = await postForm("/profile", form({ [field]: bad }), { cookie });
      expect(response.status).toBe(400);
      expect(fieldError(await response.text(), field)).toBe(message);
    }
    expect(await userRow(me.id)).toEqual(before);
  });
});

describe("the checkout screen (POST /cart?checkout)", () => {
  let carol: Account;
  beforeAll(async () => {
    carol = await newCustomer("Carol Plain");
    const shoe = await product({ name: `Plain Screen Shoe ${tag()}`, stockQuantity: 50 });
    await cartOk("POST", `/add?productId=${shoe}`, carol.token);
  });

  async function expectRefused(fields: Record<string, string>, field: string, message: string) {
    const before = { orders: await countOrders(), slips: await slipKeys(), cart: await cartRows(carol.id) };
    const response = await postCheckout(checkoutForm(fields), carol.cookie);
    const html = await response.text();
    expect(response.status, visibleText(html).slice(0, 300)).toBe(400);
    expect(fieldError(html, field)).toBe(message);
    expect({ orders: await countOrders(), slips: await slipKeys(), cart: await cartRows(carol.id) }).toEqual(before);
  }

  for (const [what, bad] of SCREEN_REFUSED_IN_A_LINE) {
    it(`a full name with ${what}: 400, the message under the field, no order`, async () => {
      await expectRefused({ customerName: bad }, "customerName", "Full name must not contain control characters");
    });
  }
  for (const [what, bad] of SCREEN_REFUSED_IN_LINES) {
    it(`a shipping address with ${what}: 400, the message under the field, no order`, async () => {
      await expectRefused({ shippingAddress: bad }, "shippingAddress", "Shipping address must not contain control characters");
    });
  }

  it("Sinhala with ZWJ and an emoji in the name and a CR LF address: the order is placed as typed", async () => {
    const response = await postCheckout(checkoutForm({ customerName: `${SINHALA} 👟`, shippingAddress: GOOD_ADDRESS }), carol.cookie);
    expect(response.status, await response.clone().text()).toBe(302);
    const id = Number(response.headers.get("Location")!.match(/\/orders\/(\d+)/)![1]);
    const row = await testEnv.DB.prepare("SELECT customer_name AS name, shipping_address AS address FROM orders WHERE id = ?").bind(id).first();
    expect(row).toEqual({ name: `${SINHALA} 👟`, address: GOOD_ADDRESS });
  });
});

describe("the add-product screen", () => {
  let adminCookie: string;
  beforeAll(async () => {
    adminCookie = (await newAdmin()).cookie;
  });

  it("a name with U+202E, a brand with CR LF, a description with NUL: 400, each message under its field, no product", async () => {
    const before = await countProducts();
    const response = await postMultipartForm("/add_product", screenProductForm({ name: "Runner\u202Eexe.", brand: "Brand\r\nX", description: "Soft\u0000sole" }), { cookie: adminCookie });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldError(html, "name")).toBe("Name must not contain control characters");
    expect(fieldError(html, "brand")).toBe("Brand must not contain control characters");
    expect(fieldError(html, "description")).toBe("Description must not contain control characters");
    expect(await countProducts()).toBe(before);
  });
});

describe("the review form", () => {
  it("a comment with U+202E: 400 with the message, no review", async () => {
    const author = await newCustomer("Plain Screen Reviewer");
    const cookie = await sessionCookieFor(author.email, author.password);
    const productId = await product({ name: `Plain Screen Review ${tag()}` });
    const response = await postForm(`/product/${productId}`, { intent: "review-create", comment: "Nice \u202Eecin", rating: "4", redirectTo: "/" }, { cookie });
    expect(response.status).toBe(400);
    expect(visibleText(await response.text())).toContain("Comment must not contain control characters");
    const count = await testEnv.DB.prepare("SELECT count(*) AS n FROM reviews WHERE product_id = ?").bind(productId).first<{ n: number }>();
    expect(count?.n).toBe(0);
  });
});
