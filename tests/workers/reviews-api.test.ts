import { beforeAll, describe, expect, it } from "vitest";

import { type ApiProduct, expectApiError, getJson } from "./catalogue-helpers";
import { apiJson, authHeader, call, testEnv } from "./helpers";
import {
  type Actor,
  type ApiReview,
  REVIEW_FIELDS,
  admin,
  createReviewApi,
  customer,
  expectRatingsInStep,
  insertReview,
  insertUser,
  listReviewsApi,
  newProduct,
  postReview,
  reviewRow,
} from "./review-helpers";

// POST /api/reviews and GET /api/reviews/product/{productId}, as API.md says.

let alice: Actor;
let bob: Actor;
beforeAll(async () => {
  [alice, bob] = await Promise.all([customer("Alice Fernando"), customer("Bob Silva")]);
});

describe("GET /api/reviews/product/{productId}", () => {
  it("lists a product's reviews newest first, with API.md's fields", async () => {
    const productId = await newProduct();
    const other = await newProduct();
    const [u1, u2, u3] = await Promise.all([insertUser("Old Reviewer"), insertUser("Middle Reviewer"), insertUser("New Reviewer")]);
    const base = Date.UTC(2026, 0, 10);
    const oldest = await insertReview(productId, u1, { comment: "oldest", rating: 2, createdAt: base });
    const newest = await insertReview(productId, u3, { comment: "newest", rating: 4, createdAt: base + 2 * 86_400_000 });
    const middle = await insertReview(productId, u2, { comment: "middle", rating: 3, createdAt: base + 86_400_000 });
    await insertReview(other, u1, { comment: "another product" });

    const response = await call(`/api/reviews/product/${productId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const list = (await response.json()) as ApiReview[];
    expect(list.map((review) => review.id)).toEqual([newest, middle, oldest]);
    expect(list.map((review) => review.comment)).toEqual(["newest", "middle", "oldest"]);
    for (const field of REVIEW_FIELDS) expect(list[0]).toHaveProperty(field);
    expect(list[0]).toMatchObject({ productId, rating: 4, userName: "New Reviewer", createdAt: new Date(base + 2 * 86_400_000).toISOString() });
    // A visitor asked: the authors' e-mails are kept back (see "userEmail" below).
    expect(list[0].userEmail).toBeNull();
    expect(Object.keys(list[0])).not.toContain("userId");
  });

  it("reviews created in the same millisecond still come newest first (by id)", async () => {
    const productId = await newProduct();
    const at = Date.UTC(2026, 5, 1);
    const first = await insertReview(productId, await insertUser("Same Time A"), { createdAt: at });
    const second = await insertReview(productId, await insertUser("Same Time B"), { createdAt: at });
    expect((await listReviewsApi(productId)).map((review) => review.id)).toEqual([second, first]);
  });

  it("a product without reviews answers []", async () => {
    expect(await listReviewsApi(await newProduct())).toEqual([]);
  });

  it("a missing product is 404; an id that is not a positive integer is 404", async () => {
    for (const id of ["999999", "0", "-1", "abc", "1.5"]) await expectApiError(await call(`/api/reviews/product/${id}`), 404);
  });

  it("pages with page and pageSize and tells the total in X-Total-Count", async () => {
    const productId = await newProduct();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await insertReview(productId, await insertUser(`Pager ${i}`), { createdAt: Date.UTC(2026, 1, 1 + i) }));
    const response = await call(`/api/reviews/product/${productId}?page=2&pageSize=2`);
    expect(response.status).toBe(200);
    expect(response.headers.get("X-Total-Count")).toBe("5");
    expect(((await response.json()) as ApiReview[]).map((review) => review.id)).toEqual([ids[2], ids[1]]);
    await expectApiError(await call(`/api/reviews/product/${productId}?page=0`), 400);
    await expectApiError(await call(`/api/reviews/product/${productId}?page=1&pageSize=101`), 400);
  });
});

describe("userEmail: the author's e-mail goes to that author and to admins, null to everyone else (API.md)", () => {
  let productId: number;
  let fromAlice: ApiReview;
  let fromBob: ApiReview;
  beforeAll(async () => {
    productId = await newProduct();
    fromAlice = await createReviewApi(alice.token, productId, "Alice's words", 4);
    fromBob = await createReviewApi(bob.token, productId, "Bob's words", 3);
  });

  /** The list as `headers` sees it: each review's e-mail by review id. */
  async function emailsSeen(headers: Record<string, string> = {}, query = ""): Promise<Record<number, string | null>> {
    const response = await call(`/api/reviews/product/${productId}${query}`, { headers });
    expect(response.status, await response.clone().text()).toBe(200);
    const list = (await response.json()) as ApiReview[];
    for (const review of list) expect(review).toHaveProperty("userEmail");
    return Object.fromEntries(list.map((review) => [review.id, review.userEmail]));
  }

  it("a visitor: every userEmail is null, in the whole list and in a page; no e-mail anywhere in the body", async () => {
    expect(await emailsSeen()).toEqual({ [fromAlice.id]: null, [fromBob.id]: null });
    expect(await emailsSeen({}, "?page=1&pageSize=1")).toEqual({ [fromBob.id]: null });
    const body = await (await call(`/api/reviews/product/${productId}`)).text();
    expect(body).not.toContain(alice.email);
    expect(body).not.toContain(bob.email);
  });

  it("a customer: their own review carries their e-mail, everyone else's is null", async () => {
    expect(await emailsSeen(authHeader(alice.token))).toEqual({ [fromAlice.id]: alice.email, [fromBob.id]: null });
    expect(await emailsSeen(authHeader(bob.token))).toEqual({ [fromAlice.id]: null, [fromBob.id]: bob.email });
    expect(await emailsSeen(authHeader(bob.token), "?page=2&pageSize=1")).toEqual({ [fromAlice.id]: null });
    const carol = await customer("Carol Without Review");
    expect(await emailsSeen(authHeader(carol.token))).toEqual({ [fromAlice.id]: null, [fromBob.id]: null });
  });

  it("the web session cookie is as good as a bearer token", async () => {
    expect(await emailsSeen({ Cookie: alice.cookie })).toEqual({ [fromAlice.id]: alice.email, [fromBob.id]: null });
  });

  it("an admin: every author's e-mail", async () => {
    const boss = await admin();
    expect(await emailsSeen(authHeader(boss.token))).toEqual({ [fromAlice.id]: alice.email, [fromBob.id]: bob.email });
  });

  it("a tampered token is a visitor: 200 with null e-mails", async () => {
    expect(await emailsSeen(authHeader(`${alice.token}x`))).toEqual({ [fromAlice.id]: null, [fromBob.id]: null });
  });

  it("an answer that carries an e-mail is kept out of shared caches", async () => {
    const response = await call(`/api/reviews/product/${productId}`, { headers: authHeader(alice.token) });
    expect(response.headers.get("Cache-Control")).toMatch(/\bprivate\b/);
    expect(response.headers.get("Cache-Control")).toMatch(/\bno-store\b/);
  });
});

describe("POST /api/reviews", () => {
  it("201 with the review; userName and userEmail come from the token, never the body", async () => {
    const productId = await newProduct();
    const response = await postReview(
      { productId, comment: "Lovely shoes", rating: 4, userName: "Someone Else", userEmail: "someone@else.test", userId: bob.id, id: 12345, createdAt: "2000-01-01T00:00:00.000Z" },
      alice.token,
    );
    expect(response.status, await response.clone().text()).toBe(201);
    const review = (await response.json()) as ApiReview;
    expect(review).toMatchObject({ productId, comment: "Lovely shoes", rating: 4, userName: "Alice Fernando", userEmail: alice.email });
    expect(review.id).not.toBe(12345);
    expect(Date.now() - Date.parse(review.createdAt)).toBeLessThan(60_000);
    expect(review.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const row = await reviewRow(review.id);
    expect(row).toMatchObject({ user_id: alice.id, product_id: productId, rating: 4 });
    expect(await listReviewsApi(productId, alice.token)).toEqual([review]);
  });

  it("the rating defaults to 5", async () => {
    const productId = await newProduct();
    const review = await createReviewApi(alice.token, productId, "No rating given");
    expect(review.rating).toBe(5);
  });

  it("the comment is trimmed", async () => {
    const productId = await newProduct();
    const review = await createReviewApi(alice.token, productId, "   padded comment \n ", 3);
    expect(review.comment).toBe("padded comment");
  });

  it("a second review of one product by one customer is 409; the first stays", async () => {
    const productId = await newProduct();
    const first = await createReviewApi(alice.token, productId, "First", 2);
    const body = await expectApiError(await postReview({ productId, comment: "Second", rating: 5 }, alice.token), 409);
    expect(body.message).toBe("You have already reviewed this product");
    expect(await listReviewsApi(productId, alice.token)).toEqual([first]);
    await expectRatingsInStep(productId, { count: 1, total: 2 });
    // Someone else may still review it.
    await createReviewApi(bob.token, productId, "Mine too", 4);
  });

  it("two reviews at once by one customer: one 201, one 409, the rating counted once", async () => {
    const productId = await newProduct();
    const responses = await Promise.all([1, 2, 3].map((i) => postReview({ productId, comment: `Race ${i}`, rating: i }, bob.token)));
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409]);
    await expectRatingsInStep(productId);
    expect((await listReviewsApi(productId)).length).toBe(1);
  });

  describe("the comment is required, trimmed, at most 2000 characters", () => {
    const cases: [string, unknown][] = [
      ["missing", undefined],
      ["empty", ""],
      ["blank", "   \n\t "],
      ["2001 characters", "a".repeat(2001)],
      ["a number", 42],
      ["null", null],
    ];
    for (const [label, comment] of cases) {
      it(`${label} -> 400 with a comment field error`, async () => {
        const productId = await newProduct();
        const body = await expectApiError(await postReview({ productId, rating: 4, ...(comment === undefined ? {} : { comment }) }, alice.token), 400);
        expect(body.fieldErrors?.comment?.length).toBeGreaterThan(0);
        await expectRatingsInStep(productId, { count: 0, total: 0 });
      });
    }

    it("exactly 2000 characters is fine, and so are 2000 emoji (characters, not UTF-16 units)", async () => {
      const productId = await newProduct();
      const review = await createReviewApi(alice.token, productId, "b".repeat(2000));
      expect(review.comment.length).toBe(2000);
      const emoji = await createReviewApi(bob.token, productId, "👟".repeat(2000));
      expect([...emoji.comment].length).toBe(2000);
      // 2000 characters plus surrounding spaces: trimmed first.
      const other = await newProduct();
      await createReviewApi(alice.token, other, `  ${"c".repeat(2000)}  `);
    });
  });

  describe("the rating is a whole number from 1 to 5", () => {
    const bad: [string, unknown][] = [
      ["0", 0],
      ["6", 6],
      ["-1", -1],
      ["4.5", 4.5],
      ['"4" (a string)', "4"],
      ["null", null],
      ["true", true],
    ];
    for (const [label, rating] of bad) {
      it(`${label} -> 400 with a rating field error`, async () => {
        const productId = await newProduct();
        const body = await expectApiError(await postReview({ productId, comment: "Rated oddly", rating }, alice.token), 400);
        expect(body.fieldErrors?.rating?.length).toBeGreaterThan(0);
        expect(await listReviewsApi(productId)).toEqual([]);
      });
    }

    it("1 to 5 are all accepted", async () => {
      const productId = await newProduct();
      const reviewers = await Promise.all([1, 2, 3, 4, 5].map((i) => customer(`Rater ${i}`)));
      for (const [index, reviewer] of reviewers.entries()) {
        expect((await createReviewApi(reviewer.token, productId, `rated ${index + 1}`, index + 1)).rating).toBe(index + 1);
      }
      await expectRatingsInStep(productId, { count: 5, total: 15 });
    });
  });

  describe("productId", () => {
    it("a product that does not exist is 404", async () => {
      const body = await expectApiError(await postReview({ productId: 99_999_999, comment: "Ghost" }, alice.token), 404);
      expect(body.message).toBe("Product not found");
      await expectApiError(await postReview({ productId: 0, comment: "Zero" }, alice.token), 404);
      await expectApiError(await postReview({ productId: -3, comment: "Negative" }, alice.token), 404);
    });

    it("not a number is 400 (a string, missing, a fraction)", async () => {
      const productId = await newProduct();
      for (const value of [String(productId), undefined, null, 1.5, [productId]]) {
        const body = await expectApiError(await postReview({ comment: "Bad id", rating: 4, ...(value === undefined ? {} : { productId: value }) }, alice.token), 400);
        expect(body.fieldErrors?.productId?.length, JSON.stringify(value)).toBeGreaterThan(0);
      }
      expect(await listReviewsApi(productId)).toEqual([]);
    });
  });

  it("malformed JSON and a non-object body are 400", async () => {
    await expectApiError(await apiJson("POST", "/api/reviews", "{not json", authHeader(alice.token)), 400);
    await expectApiError(await apiJson("POST", "/api/reviews", "[1,2]", authHeader(alice.token)), 400);
    await expectApiError(await apiJson("POST", "/api/reviews", "", authHeader(alice.token)), 400);
  });

  it("a visitor is 401 with a message naming the token; a bad token too", async () => {
    const productId = await newProduct();
    const none = await expectApiError(await postReview({ productId, comment: "Anonymous" }), 401);
    expect(none.message.toLowerCase()).toContain("token");
    const bad = await expectApiError(await postReview({ productId, comment: "Forged" }, `${alice.token}x`), 401);
    expect(bad.message).toMatch(/token/i);
    expect(bad.message).toMatch(/invalid|expired/i);
    expect(await listReviewsApi(productId)).toEqual([]);
  });

  it("an admin may review a product too (logged in is enough)", async () => {
    const boss = await admin();
    const review = await createReviewApi(boss.token, await newProduct(), "Checked the stitching", 5);
    expect(review.userEmail).toBe(boss.email);
  });
});

describe("the product's rating follows its reviews", () => {
  it("create, update and delete keep rating_count and rating_total in step, and GET /api/product/{id} shows the average", async () => {
    const productId = await newProduct();
    const carol = await customer("Carol Perera");
    const boss = await admin();
    const product = () => getJson<ApiProduct>(`/api/product/${productId}`);
    expect(await product()).toMatchObject({ averageRating: null, reviewCount: 0 });

    const a = await createReviewApi(alice.token, productId, "Good", 4);
    await expectRatingsInStep(productId, { count: 1, total: 4 });
    expect(await product()).toMatchObject({ averageRating: 4, reviewCount: 1 });

    const b = await createReviewApi(bob.token, productId, "Fine", 2);
    const c = await createReviewApi(carol.token, productId, "Superb", 5);
    await expectRatingsInStep(productId, { count: 3, total: 11 });
    expect(await product()).toMatchObject({ averageRating: 3.7, reviewCount: 3 });

    // Update: the total moves by the difference.
    let response = await apiJson("PUT", `/api/reviews/${b.id}`, { productId, comment: "Better after a week", rating: 3 }, authHeader(bob.token));
    expect(response.status).toBe(200);
    await expectRatingsInStep(productId, { count: 3, total: 12 });
    expect(await product()).toMatchObject({ averageRating: 4, reviewCount: 3 });

    // A refused update changes nothing.
    response = await apiJson("PUT", `/api/reviews/${c.id}`, { productId, comment: "Hacked", rating: 1 }, authHeader(alice.token));
    expect(response.status).toBe(403);
    await expectRatingsInStep(productId, { count: 3, total: 12 });

    // Delete by the author, then by an admin.
    response = await call(`/api/reviews/${a.id}`, { method: "DELETE", headers: authHeader(alice.token) });
    expect(response.status).toBe(204);
    await expectRatingsInStep(productId, { count: 2, total: 8 });
    response = await call(`/api/reviews/${c.id}`, { method: "DELETE", headers: authHeader(boss.token) });
    expect(response.status).toBe(204);
    await expectRatingsInStep(productId, { count: 1, total: 3 });
    expect(await product()).toMatchObject({ averageRating: 3, reviewCount: 1 });

    response = await call(`/api/reviews/${b.id}`, { method: "DELETE", headers: authHeader(bob.token) });
    expect(response.status).toBe(204);
    await expectRatingsInStep(productId, { count: 0, total: 0 });
    expect(await product()).toMatchObject({ averageRating: null, reviewCount: 0 });
  });

  it("the grid shows the same average and count", async () => {
    const productId = await newProduct();
    await createReviewApi(alice.token, productId, "Nice", 5);
    await createReviewApi(bob.token, productId, "Okay", 4);
    const products = await getJson<ApiProduct[]>("/api/products?pageSize=100&page=1");
    expect(products.find((product) => product.id === productId)).toMatchObject({ averageRating: 4.5, reviewCount: 2 });
  });

  it("a review leaves the product's updated_at alone", async () => {
    const productId = await newProduct();
    await testEnv.DB.prepare("UPDATE products SET updated_at = 1000 WHERE id = ?").bind(productId).run();
    const review = await createReviewApi(alice.token, productId, "Timing", 3);
    await apiJson("PUT", `/api/reviews/${review.id}`, { comment: "Timing again", rating: 4 }, authHeader(alice.token));
    const row = await testEnv.DB.prepare("SELECT updated_at FROM products WHERE id = ?").bind(productId).first<{ updated_at: number }>();
    expect(row!.updated_at).toBe(1000);
  });

  it("deleting the product removes its reviews; its list is then 404", async () => {
    const productId = await newProduct();
    const review = await createReviewApi(alice.token, productId, "Soon gone", 4);
    await testEnv.DB.prepare("DELETE FROM products WHERE id = ?").bind(productId).run();
    expect(await reviewRow(review.id)).toBeNull();
    await expectApiError(await call(`/api/reviews/product/${productId}`), 404);
  });
});

describe("the reviews resource", () => {
  it("is in the OpenAPI document with its methods", async () => {
    const doc = await getJson<{ paths: Record<string, Record<string, unknown>> }>("/api/openapi.json");
    expect(Object.keys(doc.paths["/api/reviews/product/{productId}"])).toEqual(["get"]);
    expect(Object.keys(doc.paths["/api/reviews"])).toEqual(["post"]);
    expect(Object.keys(doc.paths["/api/reviews/{id}"]).sort()).toEqual(["delete", "put"]);
  });

  it("the OpenAPI document says userEmail may be null and why, and that the list takes an optional token", async () => {
    type Operation = { security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: { items?: JsonSchema } & JsonSchema } > }> };
    type JsonSchema = { properties?: Record<string, { anyOf?: { type: string }[]; type?: string | string[]; description?: string }> };
    const doc = await getJson<{ paths: Record<string, Record<string, Operation>> }>("/api/openapi.json");
    const list = doc.paths["/api/reviews/product/{productId}"].get;
    expect(list.security).toEqual([{}, { bearerAuth: [] }]);
    const userEmail = list.responses["200"].content!["application/json"].schema.items!.properties!.userEmail;
    expect(JSON.stringify(userEmail)).toContain('"null"');
    expect(userEmail.description).toMatch(/admin/i);
    expect(userEmail.description).toMatch(/null/);
    const created = doc.paths["/api/reviews"].post.responses["201"].content!["application/json"].schema.properties!.userEmail;
    expect(created).toEqual(userEmail);
  });

  it("unknown paths are a JSON 404 and a wrong method a 405", async () => {
    await expectApiError(await call("/api/reviews/nope/1"), 404);
    const response = await call("/api/reviews");
    await expectApiError(response, 405);
    expect(response.headers.get("Allow")).toBe("POST");
  });
});
