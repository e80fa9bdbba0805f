import { beforeAll, describe, expect, it } from "vitest";

import { adminAccount, customerAccount, placeOrder, postStatusForm, stockedProduct, type Account } from "./admin-helpers";
import { expectApiError } from "./catalogue-helpers";
import { authHeader, call, setRole } from "./helpers";

// Who may use the back office, decided on the server: every admin API answers a customer 403 and a visitor 401; every
// admin screen (and the orders screen's action) sends a customer to / and a visitor to the login page, with the way back.

let admin: Account;
let customer: Account;
let orderId: number;

beforeAll(async () => {
  admin = await adminAccount();
  customer = await customerAccount();
  const product = await stockedProduct(1500, 50);
  orderId = (await placeOrder(customer.token, [{ productId: product, quantity: 1 }])).id;
});

type Who = "admin" | "customer" | "visitor" | "bad token";
const WHO: Who[] = ["admin", "customer", "visitor", "bad token"];

function bearer(who: Who): Record<string, string> {
  if (who === "admin") return authHeader(admin.token);
  if (who === "customer") return authHeader(customer.token);
  if (who === "bad token") return authHeader(`${admin.token.slice(0, -4)}AAAA`);
  return {};
}

function cookie(who: Who): Record<string, string> {
  if (who === "admin") return { Cookie: admin.cookie };
  if (who === "customer") return { Cookie: customer.cookie };
  if (who === "bad token") return { Cookie: `stride_session=${admin.token.slice(0, -4)}AAAA` };
  return {};
}

const apis = () => [
  { name: "GET /api/stats", path: "/api/stats", method: "GET" },
  { name: "GET /api/auth/admin/users", path: "/api/auth/admin/users", method: "GET" },
  { name: "GET /api/orders/admin/all", path: "/api/orders/admin/all", method: "GET" },
  { name: "GET /api/orders/admin/all?status=PENDING", path: "/api/orders/admin/all?status=PENDING", method: "GET" },
  { name: "PUT /api/orders/admin/{id}/status", path: `/api/orders/admin/${orderId}/status?status=PENDING`, method: "PUT" },
];

const EXPECTED_API: Record<Who, number> = { admin: 200, customer: 403, visitor: 401, "bad token": 401 };

describe("admin APIs", () => {
  for (const who of WHO) {
    it(`answer ${who === "admin" ? "an admin" : `a ${who}`} ${EXPECTED_API[who]}`, async () => {
      for (const api of apis()) {
        const response = await call(api.path, { method: api.method, headers: bearer(who) });
        if (EXPECTED_API[who] === 200) {
          expect(response.status, `${api.name}: ${await response.clone().text()}`).toBe(200);
          expect(response.headers.get("Content-Type"), api.name).toMatch(/^application\/json/);
        } else {
          const body = await expectApiError(response, EXPECTED_API[who]);
          if (who === "bad token") expect(body.message).toMatch(/token/i);
        }
      }
    });
  }

  it("the web session cookie counts as the token on the API too", async () => {
    expect((await call("/api/stats", { headers: cookie("admin") })).status).toBe(200);
    expect((await call("/api/stats", { headers: cookie("customer") })).status).toBe(403);
  });

  it("a customer's 403 changes nothing: the order keeps its status", async () => {
    const response = await call(`/api/orders/admin/${orderId}/status?status=CANCELLED`, { method: "PUT", headers: bearer("customer") });
    await expectApiError(response, 403);
    const [order] = (await (await call(`/api/orders/admin/all`, { headers: bearer("admin") })).json()) as { id: number; status: string }[];
    expect(order.id).toBe(orderId);
    expect(order.status).toBe("PENDING");
  });

  it("a demoted admin loses access at once (the role is read from D1 on every request)", async () => {
    const former = await adminAccount();
    expect((await call("/api/stats", { headers: authHeader(former.token) })).status).toBe(200);
    await setRole(former.id, "ROLE_CUSTOMER");
    expect((await call("/api/stats", { headers: authHeader(former.token) })).status).toBe(403);
    const screen = await call("/admin/orders", { headers: { Cookie: former.cookie } });
    expect(screen.status).toBe(302);
    expect(screen.headers.get("Location")).toBe("/");
  });
});

const SCREENS = ["/admin/dashboard", "/admin/users", "/admin/orders", "/admin/stock", "/admin/stock?category=Kids&page=2", "/admin/orders?status=PENDING", "/admin/orders?manage=1", "/admin/orders?slip=1"];

describe("admin screens", () => {
  it("render for an admin", async () => {
    for (const path of SCREENS) {
      const response = await call(path, { headers: cookie("admin") });
      expect(response.status, path).toBe(200);
      expect(response.headers.get("Content-Type"), path).toMatch(/^text\/html/);
    }
  });

  it("send a customer to /", async () => {
    for (const path of SCREENS) {
      const response = await call(path, { headers: cookie("customer") });
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location"), path).toBe("/");
    }
  });

  for (const who of ["visitor", "bad token"] as const) {
    it(`send a ${who} to the login page with the way back`, async () => {
      for (const path of SCREENS) {
        const response = await call(path, { headers: cookie(who) });
        expect(response.status, path).toBe(302);
        // A token that is no session says so on the login page (SPEC §8: "Session expired").
        const expected = new URLSearchParams({ redirect: path, ...(who === "bad token" ? { expired: "1" } : {}) });
        expect(response.headers.get("Location"), path).toBe(`/login?${expected}`);
      }
    });
  }

  it("guard their data requests too (client-side navigation)", async () => {
    const admin200 = await call("/admin/users.data", { headers: cookie("admin") });
    expect(admin200.status).toBe(200);
    const customerResponse = await call("/admin/users.data", { headers: cookie("customer") });
    // React Router answers a data request's redirect with 202 and the target in X-Remix-Redirect (or a turbo-stream body).
    expect([202, 204, 302]).toContain(customerResponse.status);
    const text = await customerResponse.text();
    expect(text).not.toContain(customer.email);
    expect(text).not.toContain(admin.email);
  });
});

describe("the admin orders action", () => {
  it("changes a status for an admin (200)", async () => {
    const response = await postStatusForm(admin.cookie, orderId, "PROCESSING");
    expect(response.status).toBe(200);
    const response2 = await postStatusForm(admin.cookie, orderId, "PENDING");
    expect(response2.status).toBe(200);
  });

  it("sends a customer to / and changes nothing", async () => {
    const response = await postStatusForm(customer.cookie, orderId, "SHIPPED");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    const orders = (await (await call(`/api/orders/admin/all`, { headers: bearer("admin") })).json()) as { id: number; status: string }[];
    expect(orders.find((order) => order.id === orderId)?.status).toBe("PENDING");
  });

  it("sends a visitor to the login page and changes nothing", async () => {
    const response = await postStatusForm(undefined, orderId, "SHIPPED", {}, "/admin/orders?status=PENDING");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirect: "/admin/orders?status=PENDING" })}`);
    const orders = (await (await call(`/api/orders/admin/all`, { headers: bearer("admin") })).json()) as { id: number; status: string }[];
    expect(orders.find((order) => order.id === orderId)?.status).toBe("PENDING");
  });

  it("refuses a post from another site", async () => {
    const response = await call("/admin/orders", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example", Cookie: admin.cookie },
      body: new URLSearchParams({ intent: "status", orderId: String(orderId), status: "SHIPPED" }).toString(),
    });
    expect(response.status).toBe(403);
  });
});

describe("admin links", () => {
  it("show to an admin only", async () => {
    const adminHtml = await (await call("/", { headers: cookie("admin") })).text();
    expect(adminHtml).toContain('href="/admin/dashboard"');
    for (const who of ["customer", "visitor"] as const) {
      const html = await (await call("/", { headers: cookie(who) })).text();
      expect(html, who).not.toContain('href="/admin/');
      expect(html, who).not.toContain('href="/add_product"');
    }
  });
});
