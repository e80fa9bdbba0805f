import { describe, expect, it } from "vitest";

import { insertProduct, onlySizeOf, tag } from "./catalogue-helpers";
import { call, postForm, setCookieFor } from "./helpers";
import { cartApi, newCustomer } from "./order-helpers";

// D1 read replication through the Sessions API (workers/d1-session.ts). Locally D1 has no replicas, so these tests
// prove the contract: every answer's bookmark reaches the client where it will send it back, a bookmark sent back
// starts the next session from it, and the reads that follow see the writes.

const t = tag();
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
const bookmarkOf = (response: Response) => response.headers.get("x-d1-bookmark");

describe("API clients carry the bookmark in x-d1-bookmark", () => {
  it("every API answer names one, and a client that sends it back reads its own write", async () => {
    const customer = await newCustomer("Replica Reader");
    const id = await insertProduct({ name: `Replica Shoe ${t}`, stockQuantity: 5 });
    const size = await onlySizeOf(id);

    const added = await cartApi("POST", `/add?productId=${id}&sizeId=${size}&quantity=2`, customer.token);
    expect(added.status).toBe(200);
    const afterWrite = bookmarkOf(added);
    expect(afterWrite).toMatch(BOOKMARK);

    const read = await call("/api/cart", { headers: { ...customer.auth, "x-d1-bookmark": afterWrite! } });
    expect(read.status).toBe(200);
    const lines = (await read.json()) as { productId: number; quantity: number }[];
    expect(lines).toContainEqual(expect.objectContaining({ productId: id, quantity: 2 }));
    // The session went on from the bookmark it was given: its own is at least as new (bookmarks sort by time).
    expect(bookmarkOf(read)! >= afterWrite!).toBe(true);
  });

  it("a bookmark that is not one is ignored, never an error", async () => {
    for (const bad of ["garbage", "00000000-zzzz", "'; DROP TABLE products; --", "a".repeat(500)]) {
      const response = await call("/api/products", { headers: { "x-d1-bookmark": bad } });
      expect(response.status, bad).toBe(200);
      expect(bookmarkOf(response)).toMatch(BOOKMARK);
      await response.arrayBuffer();
    }
  });
});

describe("screens keep the bookmark of their last write in a cookie", () => {
  it("a write sets stride_d1, a read does not, and the next page read with it shows the write", async () => {
    const customer = await newCustomer("Replica Shopper");
    const id = await insertProduct({ name: `Cookie Replica ${t}`, stockQuantity: 5 });
    const size = await onlySizeOf(id);

    const page = await call("/cart", { headers: { Cookie: customer.cookie } });
    expect(page.status).toBe(200);
    expect(setCookieFor(page, "stride_d1")).toBeUndefined();
    await page.text();

    const added = await postForm("/cart/add", { productId: String(id), sizeId: String(size), quantity: "1" }, { cookie: customer.cookie });
    expect(added.status).toBeLessThan(400);
    const cookie = setCookieFor(added, "stride_d1");
    expect(cookie).toMatch(/^stride_d1=[0-9a-f-]+; Path=\/; SameSite=Lax; Max-Age=3600; HttpOnly/);

    const cart = await call("/cart", { headers: { Cookie: `${customer.cookie}; ${cookie!.split(";")[0]}` } });
    expect(cart.status).toBe(200);
    expect(await cart.text()).toContain(`Cookie Replica ${t}`);
  });

  it("a bookmark cookie that is not one is ignored", async () => {
    const response = await call("/cart", { headers: { Cookie: "stride_d1=%27nonsense" } });
    expect(response.status).toBe(200);
    await response.text();
  });
});
