import { describe, expect, it } from "vitest";

import { apiJson, base64UrlDecode, call, register, registerBody, testEnv, uniqueEmail } from "./helpers";

const REGISTER = "/api/auth/register";
type ErrorBody = { message: string; fieldErrors?: Record<string, string[]> };

async function errorOf(response: Response): Promise<ErrorBody> {
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  return (await response.json()) as ErrorBody;
}

describe("POST /api/auth/register", () => {
  it("creates a customer and answers 201 with exactly the public User fields", async () => {
    const body = registerBody({ name: "Kamala Silva", phone: "0712345678", address: "7 Temple Road, Kandy" });
    const response = await apiJson("POST", REGISTER, body);
    expect(response.status).toBe(201);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const text = await response.text();
    const user = JSON.parse(text);
    expect(Object.keys(user).sort()).toEqual(["address", "email", "id", "name", "phone", "role"]);
    expect(user).toEqual({
      id: expect.any(Number),
      name: "Kamala Silva",
      email: body.email,
      phone: "0712345678",
      address: "7 Temple Road, Kandy",
      role: "ROLE_CUSTOMER",
    });
    expect(Number.isInteger(user.id) && user.id > 0).toBe(true);
    expect(text).not.toMatch(/password|hash|pbkdf2/i);
    expect(text).not.toContain(body.password);
  });

  it("stores a PBKDF2-SHA256 hash with 100,000 iterations and a 16-byte salt, never the password", async () => {
    const user = await register({ password: "plain-text-pw" });
    const row = await testEnv.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(user.id).first<{ password_hash: string }>();
    expect(row).not.toBeNull();
    const stored = row!.password_hash;
    expect(stored.startsWith("pbkdf2-sha256$100000$")).toBe(true);
    expect(stored).not.toContain("plain-text-pw");
    const [, , salt, hash] = stored.split("$");
    expect(base64UrlDecode(salt)).toHaveLength(16);
    expect(base64UrlDecode(hash)).toHaveLength(32);
  });

  it("always makes a ROLE_CUSTOMER, even when the body asks for ROLE_ADMIN", async () => {
    const body = { ...registerBody(), role: "ROLE_ADMIN" };
    const response = await apiJson("POST", REGISTER, body);
    expect(response.status).toBe(201);
    const user = (await response.json()) as { id: number; role: string };
    expect(user.role).toBe("ROLE_CUSTOMER");
    const row = await testEnv.DB.prepare("SELECT role FROM users WHERE id = ?").bind(user.id).first<{ role: string }>();
    expect(row?.role).toBe("ROLE_CUSTOMER");
  });

  it("ignores unknown fields", async () => {
    const response = await apiJson("POST", REGISTER, { ...registerBody(), isAdmin: true, favouriteColour: "teal", id: 999999 });
    expect(response.status).toBe(201);
    const user = (await response.json()) as Record<string, unknown>;
    expect(user).not.toHaveProperty("isAdmin");
    expect(user).not.toHaveProperty("favouriteColour");
    expect(user.id).not.toBe(999999);
  });

  it("lower-cases the e-mail and compares it case-insensitively (a second registration in other case is 409)", async () => {
    const local = `Mixed.Case-${crypto.randomUUID()}`;
    const first = await apiJson("POST", REGISTER, registerBody({ email: `${local}@Example.COM` }));
    expect(first.status).toBe(201);
    const user = (await first.json()) as { id: number; email: string };
    expect(user.email).toBe(`${local}@example.com`.toLowerCase());
    const row = await testEnv.DB.prepare("SELECT email FROM users WHERE id = ?").bind(user.id).first<{ email: string }>();
    expect(row?.email).toBe(user.email);

    const again = await apiJson("POST", REGISTER, registerBody({ email: `${local.toUpperCase()}@example.com` }));
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toMatch(/already registered/i);
    const count = await testEnv.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(user.email).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it("trims the text fields", async () => {
    const email = uniqueEmail("trim");
    const response = await apiJson("POST", REGISTER, registerBody({ name: "  Ruwan  ", email: `  ${email}  `, phone: " 0771234567 " }));
    expect(response.status).toBe(201);
    const user = (await response.json()) as { name: string; email: string; phone: string };
    expect(user).toMatchObject({ name: "Ruwan", email, phone: "0771234567" });
  });

  describe("rejects bad input with 400 and field errors", () => {
    for (const field of ["name", "email", "password", "address", "phone"] as const) {
      it(`${field} missing`, async () => {
        const body: Record<string, string> = { ...registerBody() };
        delete body[field];
        const response = await apiJson("POST", REGISTER, body);
        expect(response.status).toBe(400);
        const error = await errorOf(response);
        expect(typeof error.message).toBe("string");
        expect(error.fieldErrors?.[field]?.length).toBeGreaterThan(0);
        expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
      });
    }

    it("every field missing names all five, each in words ('Name is required'), not the parser's", async () => {
      const response = await apiJson("POST", REGISTER, {});
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.fieldErrors).toEqual({
        address: ["Address is required"],
        email: ["Email is required"],
        name: ["Name is required"],
        password: ["Password is required"],
        phone: ["Phone number is required"],
      });
    });

    it("blank (whitespace-only) name and address", async () => {
      const response = await apiJson("POST", REGISTER, registerBody({ name: "   ", address: " " }));
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.fieldErrors?.name?.length).toBeGreaterThan(0);
      expect(error.fieldErrors?.address?.length).toBeGreaterThan(0);
    });

    for (const phone of ["077123456", "07712345678", "07712345ab", "+947712345", ""]) {
      it(`phone ${JSON.stringify(phone)} is not exactly 10 digits`, async () => {
        const response = await apiJson("POST", REGISTER, registerBody({ phone }));
        expect(response.status).toBe(400);
        const error = await errorOf(response);
        expect(error.message).toBe("Phone number must be exactly 10 digits");
        expect(error.fieldErrors?.phone).toContain("Phone number must be exactly 10 digits");
      });
    }

    it("phone sent as a number (no coercion)", async () => {
      const response = await apiJson("POST", REGISTER, { ...registerBody(), phone: 7712345678 });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).fieldErrors?.phone?.length).toBeGreaterThan(0);
    });

    it("name sent as a number (no coercion)", async () => {
      const response = await apiJson("POST", REGISTER, { ...registerBody(), name: 42 });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).fieldErrors?.name?.length).toBeGreaterThan(0);
    });

    it("password shorter than 6 characters", async () => {
      const response = await apiJson("POST", REGISTER, registerBody({ password: "12345" }));
      expect(response.status).toBe(400);
      const error = await errorOf(response);
      expect(error.message).toBe("Password must be at least 6 characters long");
      expect(error.fieldErrors?.password).toContain("Password must be at least 6 characters long");
    });

    it("a malformed e-mail", async () => {
      const response = await apiJson("POST", REGISTER, registerBody({ email: "not-an-email" }));
      expect(response.status).toBe(400);
      expect((await errorOf(response)).fieldErrors?.email?.length).toBeGreaterThan(0);
    });

    for (const [label, raw] of [
      ["malformed JSON", '{"name": "Ann",'],
      ["an empty body", ""],
      ["plain text", "name=Ann&email=a@b.c"],
    ] as const) {
      it(label, async () => {
        const response = await apiJson("POST", REGISTER, raw);
        expect(response.status).toBe(400);
        expect(typeof (await errorOf(response)).message).toBe("string");
      });
    }

    for (const [label, raw] of [
      ["JSON null", "null"],
      ["a JSON array", "[]"],
      ["a JSON string", '"hello"'],
    ] as const) {
      it(`${label} (never a 500)`, async () => {
        const response = await apiJson("POST", REGISTER, raw);
        expect(response.status).toBe(400);
        expect(typeof (await errorOf(response)).message).toBe("string");
      });
    }
  });

  it("a 2 MB body is 413 and creates nothing", async () => {
    const email = uniqueEmail("big");
    const response = await apiJson("POST", REGISTER, { ...registerBody({ email }), padding: "x".repeat(2 * 1024 * 1024) });
    expect(response.status).toBe(413);
    expect(typeof (await errorOf(response)).message).toBe("string");
    const row = await testEnv.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first();
    expect(row).toBeNull();
  });

  it("a 2 MB body streamed without Content-Length is 413 too", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"padding":"'));
        if (sent >= 32) {
          controller.enqueue(new TextEncoder().encode('"}'));
          controller.close();
          return;
        }
        controller.enqueue(chunk);
        sent++;
      },
    });
    const response = await call(REGISTER, { method: "POST", headers: { "Content-Type": "application/json" }, body: stream });
    expect(response.status).toBe(413);
    expect(typeof (await errorOf(response)).message).toBe("string");
  });

  it("a body just under 64 KiB is still read", async () => {
    const body = registerBody();
    const padding = "x".repeat(60 * 1024);
    const response = await apiJson("POST", REGISTER, { ...body, padding });
    expect(response.status).toBe(201);
  });
});
