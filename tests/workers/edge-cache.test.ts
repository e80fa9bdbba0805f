import { describe, expect, it } from "vitest";

import { CATALOGUE_TAG, productTag } from "~/lib/edge-cache";
import { purgeChangedPages } from "../../workers/catalogue-purge";
import { markShared, sharedPageVisit } from "../../workers/edge-cache";
import { insertProduct, onlySizeOf, png, productBody, purgeDirectWrites, tag, updateProductApi, visibleText } from "./catalogue-helpers";
import { putStatus } from "./admin-helpers";
import { call, testEnv } from "./helpers";
import { cartApi, newAdmin, newCustomer, orderBody, orderForm, placeOrder, postOrder } from "./order-helpers";

// The shared edge cache (workers/edge-cache.ts): what it stores, for whom, and when a write purges it. In this runtime
// the Cache API stands in for Workers Caching (docs/edge-cache.md); the rules under test are the same.

const t = tag();

/** A page as a given visitor asks for it. */
async function visit(path: string, cookie?: string) {
  const response = await call(path, cookie ? { headers: { Cookie: cookie } } : {});
  return { response, html: await response.text(), status: response.headers.get("Cf-Cache-Status"), age: response.headers.get("Age") };
}

describe("anonymous catalogue pages come from the shared cache", () => {
  for (const path of ["/", "/?category=Gents&sort=price-asc", "/search?keyword=runner", "/sitemap.xml", "/robots.txt"]) {
    it(`${path}: a miss, then a hit that tells its age`, async () => {
      const first = await visit(path);
      expect(first.response.status).toBe(200);
      expect(first.status).toBe("MISS");
      const second = await visit(path);
      expect(second.status).toBe("HIT");
      expect(Number(second.age)).toBeGreaterThanOrEqual(0);
      expect(second.response.headers.get("Cache-Control")).toBe("public, no-cache");
      // Internal headers never leave.
      for (const name of ["Cache-Tag", "X-Stride-Script-Hashes", "X-Stride-Rendered-At", "Cloudflare-CDN-Cache-Control"]) {
        expect(second.response.headers.has(name), name).toBe(false);
      }
    });
  }

  // The CSP header that names the scripts' hashes is checked in security.test.ts and against the built Worker
  // (tests/e2e/edge-cache.spec.ts).
  it("a product page is cached without a nonce, and a hit is the stored page itself", async () => {
    const id = await insertProduct({ name: `Cached Runner ${t}`, category: "Gents" });
    const first = await visit(`/product/${id}`);
    const second = await visit(`/product/${id}`);
    expect([first.status, second.status]).toEqual(["MISS", "HIT"]);
    expect(first.html).toContain("<script");
    // A nonce kept in a cache would be every visitor's: the shared page has none.
    expect(first.html).not.toMatch(/\snonce=/);
    expect(second.html).toBe(first.html);
  });

  it("the theme is part of the key: a dark visitor and a light one each get their own page", async () => {
    const path = `/?sort=name&theme-test=${t}`;
    const dark = await visit(path, "theme=dark-theme");
    const light = await visit(path);
    const darkAgain = await visit(path, "theme=dark-theme");
    expect(dark.html).toContain('class="dark-theme"');
    expect(light.html).toContain('class="light-theme"');
    expect(light.status).toBe("MISS");
    expect(darkAgain.status).toBe("HIT");
    expect(darkAgain.html).toContain('class="dark-theme"');
  });

  it("the origin is part of the key: a page asked for under another Host never answers for this one", async () => {
    const id = await insertProduct({ name: `Canonical Runner ${t}`, category: "Gents" });
    const elsewhere = await visit(`http://elsewhere.example/product/${id}`);
    expect(elsewhere.html).toContain(`href="http://elsewhere.example/product/${id}"`);
    const here = await visit(`/product/${id}`);
    expect(here.status).toBe("MISS");
    expect(here.html).not.toContain("elsewhere.example");
    expect(here.html).toContain(`rel="canonical" href="http://localhost/product/${id}"`);
  });

  it("the origin is in the entrypoint's props, which Workers Caching keys on (it does not key on the host)", async () => {
    const request = (url: string) => new Request(url, { headers: { Cookie: "theme=dark-theme" } });
    expect(sharedPageVisit(request("https://stride.lk/product/7"), new URL("https://stride.lk/product/7"))).toEqual({ theme: "dark-theme", origin: "https://stride.lk" });
    expect(sharedPageVisit(request("https://stride.example.workers.dev/"), new URL("https://stride.example.workers.dev/"))?.origin).toBe("https://stride.example.workers.dev");
  });

  it("client navigations (.data) are shared too", async () => {
    const first = await visit(`/_root.data?n=${t}`);
    const second = await visit(`/_root.data?n=${t}`);
    expect(first.response.status).toBe(200);
    expect([first.status, second.status]).toEqual(["MISS", "HIT"]);
  });
});

describe("a page that depends on who asks is never stored nor served to anyone else", () => {
  it("an admin's, a customer's and a cart-holding visitor's pages stay theirs", async () => {
    const path = `/?category=Kids&who=${t}`;
    const admin = await newAdmin();
    const customer = await newCustomer("Edge Customer");
    const id = await insertProduct({ name: `Cart Filler ${t}`, category: "Kids" });
    const size = await onlySizeOf(id);
    const cartCookie = `stride_cart=${encodeURIComponent(JSON.stringify([{ productId: id, sizeId: size, quantity: 1 }]))}`;

    const asAdmin = await visit(path, admin.cookie);
    const asCustomer = await visit(path, customer.cookie);
    const withCart = await visit(path, cartCookie);
    for (const personal of [asAdmin, asCustomer, withCart]) {
      expect(personal.response.status).toBe(200);
      expect(personal.response.headers.get("Cache-Control")).toBe("private, no-store");
      expect(personal.status).toBeNull();
    }
    expect(visibleText(asAdmin.html)).toContain("Dashboard");
    expect(asCustomer.html).toContain(`Profile of ${customer.name}`);
    expect(withCart.html).toContain("Cart, 1 item");

    // Then the anonymous visitor: a page of their own, rendered for nobody in particular, and stored as such.
    const anonymous = await visit(path);
    expect(anonymous.status).toBe("MISS");
    expect(visibleText(anonymous.html)).not.toContain("Dashboard");
    expect(anonymous.html).not.toContain("Profile of");
    expect(anonymous.html).toContain("Cart, 0 items");
    // And after the anonymous page is stored, the others still get their own.
    expect((await visit(path, admin.cookie)).html).toContain("Dashboard");
    expect((await visit(path, cartCookie)).html).toContain("Cart, 1 item");
  });

  it("a bearer token and a dead session cookie bypass the cache too", async () => {
    const customer = await newCustomer("Bearer Reader");
    const path = `/?bearer=${t}`;
    const bearer = await call(path, { headers: customer.auth });
    expect(bearer.headers.get("Cache-Control")).toBe("private, no-store");
    await bearer.text();
    const dead = await visit(path, "stride_session=not-a-token");
    expect(dead.response.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("a shopper's navigation data and API answers are theirs alone: private, asked again before use", async () => {
    const customer = await newCustomer("Data Reader");
    const data = await visit(`/_root.data?who=${t}`, customer.cookie);
    expect(data.html).toContain(customer.name);
    expect(data.response.headers.get("Cache-Control")).toBe("private, no-cache");
    const me = await call("/api/auth/me", { headers: customer.auth });
    expect(me.status).toBe(200);
    expect(me.headers.get("Cache-Control")).toBe("private, no-cache");
    await me.text();
  });

  it("an answer with a Set-Cookie, or that is not a 200, is marked never to be stored", async () => {
    const url = new URL("http://localhost/");
    const withCookie = await markShared(new Response("x", { headers: { "Set-Cookie": "a=b" } }), url, 0);
    expect(withCookie.headers.get("Cache-Control")).toBe("private, no-store");
    expect(withCookie.headers.has("Cloudflare-CDN-Cache-Control")).toBe(false);
    const notFound = await markShared(new Response("x", { status: 404 }), url, 0);
    expect(notFound.headers.get("Cache-Control")).toBe("private, no-store");
    const shared = await markShared(new Response("x"), url, 0);
    // At most 60 seconds old, also when the Worker fails to render it again (Cloudflare's default serves stale then).
    expect(shared.headers.get("Cloudflare-CDN-Cache-Control")).toBe("max-age=60, stale-if-error=0");
    const robots = await markShared(new Response("x"), new URL("http://localhost/robots.txt"), 0);
    expect(robots.headers.get("Cloudflare-CDN-Cache-Control")).toBe("max-age=86400");
  });

  it("a 404 product page is not stored", async () => {
    expect((await visit("/product/987654321")).response.status).toBe(404);
    const again = await visit("/product/987654321");
    expect(again.status).toBe("BYPASS");
  });
});

describe("writes purge the pages that show them", () => {
  it("an admin's price change shows on the next anonymous load of the product, its category and related pages", async () => {
    const admin = await newAdmin();
    const name = `Purged Runner ${t}`;
    const id = await insertProduct({ name, category: "Ladies", price: 1000, releaseDate: "2031-01-01" });
    const neighbour = await insertProduct({ name: `Neighbour ${t}`, category: "Ladies", releaseDate: "2031-01-02" });
    const paths = [`/product/${id}`, "/?category=Ladies", `/product/${neighbour}`];
    for (const path of paths) {
      await visit(path);
      expect((await visit(path)).status, path).toBe("HIT");
    }
    expect((await visit(`/product/${neighbour}`)).html).toContain(name);

    await updateProductApi(admin.token, id, productBody({ name, category: "Ladies", price: 2345, releaseDate: "2031-01-01" }), png());
    for (const path of paths) {
      const after = await visit(path);
      expect(after.status, path).toBe("MISS");
      expect(visibleText(after.html), path).toContain("Rs 2,345.00");
    }
  });

  it("an order's stock change and its cancellation purge the product page", async () => {
    const admin = await newAdmin();
    const customer = await newCustomer("Stock Buyer");
    const id = await insertProduct({ name: `Last Pairs ${t}`, category: "Gents", stockQuantity: 4 });
    const size = await onlySizeOf(id);
    await visit(`/product/${id}`);
    expect((await visit(`/product/${id}`)).status).toBe("HIT");

    const order = await placeOrder(customer.token, [{ productId: id, sizeId: size, quantity: 3 }]);
    const afterOrder = await visit(`/product/${id}`);
    expect(afterOrder.status).toBe("MISS");
    expect(visibleText(afterOrder.html)).toContain("Stock available: 1");
    expect((await visit(`/product/${id}`)).status).toBe("HIT");

    const cancelled = await putStatus(admin.token, order.id, "CANCELLED");
    expect(cancelled.status).toBe(200);
    const afterCancel = await visit(`/product/${id}`);
    expect(afterCancel.status).toBe("MISS");
    expect(visibleText(afterCancel.html)).toContain("Stock available: 4");
  });

  it("a review purges its product's page and the grids, and no other product's page", async () => {
    const customer = await newCustomer("Edge Reviewer");
    const id = await insertProduct({ name: `Reviewed ${t}`, category: "Kids" });
    // A page of another category, rendered after this product (so it shows it nowhere).
    const bystander = await insertProduct({ name: `Bystander ${t}`, category: "Accessories" });
    for (const path of [`/product/${id}`, `/product/${bystander}`, "/?category=Accessories"]) {
      await visit(path);
      expect((await visit(path)).status, path).toBe("HIT");
    }
    const comment = `Fits well, edge ${t}`;
    const review = await call("/api/reviews", { method: "POST", headers: { ...customer.auth, "Content-Type": "application/json" }, body: JSON.stringify({ productId: id, rating: 4, comment }) });
    expect(review.status).toBe(201);
    const after = await visit(`/product/${id}`);
    expect(after.status).toBe("MISS");
    expect(after.html).toContain(comment);
    expect((await visit("/?category=Accessories")).status).toBe("MISS");
    expect((await visit(`/product/${bystander}`)).status).toBe("HIT");
  });

  it("a failed write changes nothing and the cached page stays", async () => {
    const customer = await newCustomer("Greedy Buyer");
    const id = await insertProduct({ name: `Scarce ${t}`, category: "Gents", stockQuantity: 1 });
    const size = await onlySizeOf(id);
    await visit(`/product/${id}`);
    const refused = await postOrder(orderForm(orderBody([{ productId: id, sizeId: size, quantity: 2 }])), customer.token);
    expect(refused.status).toBe(409);
    await refused.text();
    const over = await cartApi("POST", `/add?productId=${id}&sizeId=${size}&quantity=5`, customer.token);
    expect(over.status).toBe(409);
    await over.text();
    expect((await visit(`/product/${id}`)).status).toBe("HIT");
    const changes = await testEnv.DB.prepare("SELECT count(*) AS n FROM catalogue_changes").first<number>("n");
    expect(changes).toBe(0);
  });
});

describe("the recorded changes (catalogue_changes)", () => {
  const record = (productId: number) => testEnv.DB.prepare("INSERT INTO catalogue_changes (product_id) VALUES (?)").bind(productId).run();

  it("a purge takes out only the changes it read, even when another purge emptied the table meanwhile", async () => {
    await purgeDirectWrites();
    await record(101);
    const purged: string[][] = [];
    await purgeChangedPages(testEnv.DB, async (tags) => {
      purged.push(tags);
      // While this purge is on its way: another request's purge takes every row out, then a third request records its
      // change. With ids given again once the table was empty, that change took the id this purge read (1) and went.
      await testEnv.DB.prepare("DELETE FROM catalogue_changes").run();
      await record(202);
      return true;
    });
    expect(purged).toEqual([[CATALOGUE_TAG, productTag(101)]]);
    const left = await testEnv.DB.prepare("SELECT product_id AS productId FROM catalogue_changes").all<{ productId: number }>();
    expect(left.results).toEqual([{ productId: 202 }]);
    await purgeDirectWrites();
  });
});
