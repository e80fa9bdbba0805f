import { beforeAll, describe, expect, it, vi } from "vitest";

import { type ApiProduct, createProductApi, productBody, tag, updateProductApi, visibleText } from "./catalogue-helpers";
import { authHeader, call, testEnv } from "./helpers";
import { type Account, cartOk, cartRows, newAdmin, newCustomer, placeOrder } from "./order-helpers";

// A customer's cart line that the shop took away (its size removed by an admin's save, its product deleted) goes
// with it (ON DELETE CASCADE), so the cart never shows a line that cannot be bought; the triggers of migration 0024
// keep what it was, and the cart page says once which line went and why. A visitor's cookie cart says it its own way
// (cart-stale-lines.test.ts). The product page says a size removed while it was open under its sizes.

const t = tag();
let admin: Account;

beforeAll(async () => {
  admin = await newAdmin();
});

/** A Gents shoe in EU 40 and EU 41 (5 pairs each). */
const shoe = (name: string) => createProductApi(admin.token, { name: `${name} ${t}`, category: "Gents", sizes: [{ label: "EU 40", stockQuantity: 5 }, { label: "EU 41", stockQuantity: 5 }] });
const sizeOf = (product: ApiProduct, label: string) => product.sizes.find((size) => size.label === label)!.id;

/** The admin's save of the shoe without one of its sizes. */
const removeSize = (product: ApiProduct, label: string) =>
  updateProductApi(admin.token, product.id, {
    ...productBody({ name: product.name, category: "Gents" }),
    sizes: product.sizes.filter((size) => size.label !== label).map(({ id, label: kept, stockQuantity }) => ({ id, label: kept, stockQuantity })),
  });

const cartPage = async (customer: Account) => visibleText(await (await call("/cart", { headers: { Cookie: customer.cookie } })).text());
const goneRows = async (customer: Account) =>
  (await testEnv.DB.prepare("SELECT product_name AS name, size_label AS label, reason FROM cart_lines_gone WHERE user_id = ? ORDER BY id").bind(customer.id).all()).results;

describe("a size removed while it was in a customer's cart", () => {
  it("the line goes; the cart page says which and why, once", async () => {
    const product = await shoe("Night Shift");
    const customer = await newCustomer("Gone Size");
    await cartOk("POST", `/add?productId=${product.id}&sizeId=${sizeOf(product, "EU 41")}`, customer.token);
    await cartOk("POST", `/add?productId=${product.id}&sizeId=${sizeOf(product, "EU 40")}`, customer.token);
    await removeSize(product, "EU 41");

    expect(await goneRows(customer)).toEqual([{ name: product.name, label: "EU 41", reason: "SIZE_REMOVED" }]);
    const first = await cartPage(customer);
    expect(first).toContain(`${product.name} is no longer sold in EU 41, so it was taken out of your cart.`);
    // The line that can still be bought stays, and only it.
    expect(first).toContain("EU 40");
    expect(first).not.toMatch(/Size:?\s*EU 41/);
    // Said once: forgotten once the page is sent.
    await vi.waitFor(async () => expect(await goneRows(customer)).toEqual([]), { timeout: 5000, interval: 50 });
    expect(await cartPage(customer)).not.toContain("is no longer sold");
  });

  it("every customer who had the size is told, each on their own cart only", async () => {
    const product = await shoe("Shared Size");
    const [one, two, bystander] = await Promise.all([newCustomer("Gone One"), newCustomer("Gone Two"), newCustomer("Gone Bystander")]);
    for (const customer of [one, two]) await cartOk("POST", `/add?productId=${product.id}&sizeId=${sizeOf(product, "EU 41")}`, customer.token);
    await cartOk("POST", `/add?productId=${product.id}&sizeId=${sizeOf(product, "EU 40")}`, bystander.token);
    await removeSize(product, "EU 41");
    expect(await goneRows(one)).toHaveLength(1);
    expect(await goneRows(two)).toHaveLength(1);
    expect(await goneRows(bystander)).toEqual([]);
    expect(await cartPage(bystander)).not.toContain("is no longer sold");
  });
});

describe("a product deleted while it was in a customer's cart", () => {
  it("is said once per line, with its size, as no longer sold in the shop", async () => {
    const product = await shoe("Deleted Loafer");
    const customer = await newCustomer("Gone Product");
    await cartOk("POST", `/add?productId=${product.id}&sizeId=${sizeOf(product, "EU 40")}`, customer.token);
    await cartOk("POST", `/add?productId=${product.id}&sizeId=${sizeOf(product, "EU 41")}`, customer.token);
    expect((await call(`/api/product/${product.id}`, { method: "DELETE", headers: authHeader(admin.token) })).status).toBe(204);
    // One row per line: the size trigger stays quiet for the sizes that go with their product.
    expect(await goneRows(customer)).toEqual([
      { name: product.name, label: "EU 40", reason: "PRODUCT_DELETED" },
      { name: product.name, label: "EU 41", reason: "PRODUCT_DELETED" },
    ]);
    const text = await cartPage(customer);
    expect(text).toContain(`${product.name} (EU 40) is no longer sold in the shop, so it was taken out of your cart.`);
    expect(text).toContain(`${product.name} (EU 41) is no longer sold in the shop, so it was taken out of your cart.`);
    expect(text).toContain("Your cart is empty");
  });
});

describe("lines the customer took out themselves", () => {
  it("a Remove, a cleared cart and a placed order write nothing to say", async () => {
    const product = await shoe("Own Removal");
    const customer = await newCustomer("Gone Own");
    await cartOk("POST", `/add?productId=${product.id}&sizeId=${sizeOf(product, "EU 40")}`, customer.token);
    await cartOk("DELETE", `/remove?productId=${product.id}&sizeId=${sizeOf(product, "EU 40")}`, customer.token);
    await cartOk("POST", `/add?productId=${product.id}&sizeId=${sizeOf(product, "EU 41")}`, customer.token);
    await cartOk("DELETE", "/clear", customer.token);
    await cartOk("POST", `/add?productId=${product.id}&sizeId=${sizeOf(product, "EU 41")}`, customer.token);
    await placeOrder(customer.token, [{ productId: product.id, sizeId: sizeOf(product, "EU 41"), quantity: 1 }]);
    expect(await cartRows(customer.id)).toEqual({});
    // A size removed with nobody's cart holding it says nothing either.
    await removeSize(product, "EU 41");
    expect(await goneRows(customer)).toEqual([]);
  });
});

describe("the product page's size picker, for a size removed while the page was open", () => {
  it("an add of it without JavaScript comes back to the picker, which says the size is no longer sold and offers the sizes sold now", async () => {
    const product = await shoe("Picker Gone");
    await removeSize(product, "EU 41");
    const response = await call("/cart/add", {
      method: "POST",
      body: new URLSearchParams({ productId: String(product.id), sizeId: String(sizeOf(product, "EU 41")), redirectTo: `/product/${product.id}` }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost" },
    });
    expect(response.status).toBe(302);
    const back = response.headers.get("Location")!;
    expect(back).toMatch(new RegExp(`#size-picker-${product.id}$`));
    const html = await (await call(back)).text();
    expect(html).toMatch(new RegExp(`<p id="size-missing-${product.id}" role="alert"[^>]*>That size is no longer sold. Please choose another size.</p>`));
    expect(html).not.toContain("That size is not one of this product");
    expect([...html.matchAll(/<input[^>]*name="sizeId"[^>]*value="(\d+)"/g)].map(([, id]) => Number(id))).toEqual([sizeOf(product, "EU 40")]);
  });
});
