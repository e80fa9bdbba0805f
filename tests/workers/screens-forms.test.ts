import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

// A POST that is not a form (no Content-Type, or JSON) to a screen action is the client's mistake: a 400, never a 500.
const actions = ["/login", "/register", "/profile", "/theme", "/cart", "/cart/add", "/product/1", "/admin/orders"];

describe("screen actions without a form body", () => {
  for (const path of actions) {
    it(`POST ${path} with no body answers below 500`, async () => {
      const response = await SELF.fetch(`http://localhost${path}`, { method: "POST", headers: { Origin: "http://localhost" }, redirect: "manual" });
      expect(response.status, path).toBeLessThan(500);
    });
  }

  it("POST /login with a JSON body is a 400", async () => {
    const response = await SELF.fetch("http://localhost/login", {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/json" },
      body: JSON.stringify({ email: "a@b.lk", password: "x" }),
      redirect: "manual",
    });
    expect(response.status).toBe(400);
  });

  for (const path of ["/login", "/register", "/theme", "/cart/add"]) {
    it(`POST ${path} with a 2 MB form streamed without Content-Length is a 413, read no further than 64 KiB`, async () => {
      const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new TextEncoder().encode("email=a%40b.lk&password="));
          if (sent++ >= 32) return controller.close();
          controller.enqueue(chunk);
        },
      });
      const response = await SELF.fetch(`http://localhost${path}`, {
        method: "POST",
        headers: { Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
        body,
        redirect: "manual",
      });
      expect(response.status, path).toBe(413);
    });
  }
});
