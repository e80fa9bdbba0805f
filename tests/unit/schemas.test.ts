import { describe, expect, it } from "vitest";

import { loginSchema, profileFormSchema, profileSchema, registerFormSchema, registerSchema, userSchema } from "~/lib/schemas/auth";
import { orderInputSchema } from "~/lib/schemas/order";
import { picturesInputSchema, productInputSchema } from "~/lib/schemas/product";
import { reviewCreateSchema } from "~/lib/schemas/review";

const valid = { name: "Nimal", email: "Nimal@Example.com", password: "secret123", address: "12 Galle Road", phone: "0771234567" };
const messagesFor = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }, field: string) =>
  (result.error?.issues ?? []).filter((issue) => issue.path[0] === field).map((issue) => issue.message);

describe("registerSchema", () => {
  it("accepts a valid body, trimming and lower-casing the e-mail, dropping unknown keys", () => {
    const result = registerSchema.parse({ ...valid, name: " Nimal ", email: "  Nimal@Example.COM ", role: "ROLE_ADMIN" });
    expect(result).toEqual({ ...valid, email: "nimal@example.com" });
    expect(result).not.toHaveProperty("role");
  });

  it("requires every field", () => {
    for (const field of Object.keys(valid)) {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      const result = registerSchema.safeParse(body);
      expect(result.success, field).toBe(false);
      expect(messagesFor(result, field).length, field).toBeGreaterThan(0);
    }
  });

  it("phone: exactly 10 digits, a string", () => {
    for (const phone of ["077123456", "07712345678", "077-123-456", "abcdefghij", ""]) {
      expect(messagesFor(registerSchema.safeParse({ ...valid, phone }), "phone"), phone).toEqual(["Phone number must be exactly 10 digits"]);
    }
    expect(registerSchema.safeParse({ ...valid, phone: 771234567 }).success).toBe(false);
  });

  it("password: at least 6 characters", () => {
    expect(messagesFor(registerSchema.safeParse({ ...valid, password: "12345" }), "password")).toEqual(["Password must be at least 6 characters long"]);
    expect(registerSchema.safeParse({ ...valid, password: "123456" }).success).toBe(true);
  });

  it("e-mail: well formed", () => {
    for (const email of ["plain", "a@", "@b.com", "a b@c.com"]) expect(registerSchema.safeParse({ ...valid, email }).success, email).toBe(false);
  });
});

describe("registerFormSchema", () => {
  it("requires the confirmation to match", () => {
    const result = registerFormSchema.safeParse({ ...valid, confirmPassword: "secret124" });
    expect(result.success).toBe(false);
    expect(messagesFor(result, "confirmPassword")).toEqual(["Passwords do not match"]);
    expect(registerFormSchema.safeParse({ ...valid, confirmPassword: "secret123" }).success).toBe(true);
  });
});

describe("loginSchema", () => {
  it("normalises the e-mail and requires a password", () => {
    expect(loginSchema.parse({ email: " A@B.COM ", password: "x" })).toEqual({ email: "a@b.com", password: "x" });
    expect(loginSchema.safeParse({ email: "a@b.com", password: "" }).success).toBe(false);
  });
});

describe("profileSchema", () => {
  const base = { name: "Nimal", email: "nimal@example.com", address: "1 Road", phone: "0771234567" };
  it("turns a blank, null or missing password into undefined (keep the current one)", () => {
    expect(profileSchema.parse({ ...base, password: "" }).password).toBeUndefined();
    expect(profileSchema.parse({ ...base, password: null }).password).toBeUndefined();
    expect(profileSchema.parse(base).password).toBeUndefined();
    expect(profileSchema.parse({ ...base, password: "newpass1" }).password).toBe("newpass1");
  });

  it("refuses a short new password with the spec's message", () => {
    expect(messagesFor(profileSchema.safeParse({ ...base, password: "abc" }), "password")).toContain("Password must be at least 6 characters long");
  });

  it("requires name and e-mail", () => {
    expect(messagesFor(profileSchema.safeParse({ ...base, name: " " }), "name").length).toBeGreaterThan(0);
    expect(messagesFor(profileSchema.safeParse({ ...base, email: "" }), "email").length).toBeGreaterThan(0);
  });

  it("the form version requires the confirmation to match a new password, and accepts both blank", () => {
    expect(messagesFor(profileFormSchema.safeParse({ ...base, password: "newpass1", confirmPassword: "newpass2" }), "confirmPassword")).toEqual([
      "Passwords do not match",
    ]);
    expect(profileFormSchema.safeParse({ ...base, password: "", confirmPassword: "" }).success).toBe(true);
  });
});

describe("userSchema", () => {
  it("is exactly the public fields (a hash would be stripped)", () => {
    const user = userSchema.parse({ id: 1, name: "A", email: "a@b.c", phone: "0771234567", address: "x", role: "ROLE_CUSTOMER", passwordHash: "pbkdf2..." });
    expect(Object.keys(user).sort()).toEqual(["address", "email", "id", "name", "phone", "role"]);
    expect(userSchema.safeParse({ id: 1, name: "A", email: "a@b.c", phone: "", address: "", role: "ROLE_ROOT" }).success).toBe(false);
  });
});

describe("productInputSchema: what an admin who left a field empty is told", () => {
  const product = { name: "Runner", brand: "Stride", description: "Light", price: 12500, category: "Gents", stockQuantity: 5, releaseDate: "2026-01-15" };

  it("an empty price is required, not 'not a number'; a price that is not a number says so", () => {
    expect(messagesFor(productInputSchema.safeParse({ ...product, price: undefined }), "price")).toEqual(["Price is required"]);
    expect(messagesFor(productInputSchema.safeParse({ ...product, price: Number.NaN }), "price")).toEqual(["Price must be a number"]);
  });

  it("an empty release date is required first; a date in another shape says which shape", () => {
    expect(messagesFor(productInputSchema.safeParse({ ...product, releaseDate: "" }), "releaseDate")[0]).toBe("Release date is required");
    expect(messagesFor(productInputSchema.safeParse({ ...product, releaseDate: "15/01/2026" }), "releaseDate")[0]).toBe("Release date must be YYYY-MM-DD");
  });
});

describe("a field of the wrong type or out of range is told so, not that it is missing or not a number", () => {
  const issues = (result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
    (result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]);
  const order = { customerName: "Nimal", customerEmail: "n@example.com", customerPhone: "0771234567", shippingAddress: "1 Road", orderItems: [{ productId: 1, quantity: 1 }] };

  it("a review's comment sent as a number; missing, it is required", () => {
    expect(issues(reviewCreateSchema.safeParse({ comment: 5, rating: 4, productId: 1 }))).toEqual([["comment", "Comment must be text"]]);
    expect(issues(reviewCreateSchema.safeParse({ rating: 4, productId: 1 }))).toEqual([["comment", "Comment is required"]]);
  });

  it("an order's quantity is any whole number (the stock decides), its phone sent as a number, its product id below 1", () => {
    expect(issues(orderInputSchema.safeParse({ ...order, orderItems: [{ productId: 1, quantity: 1e9 }] }))).toEqual([]);
    expect(issues(orderInputSchema.safeParse({ ...order, orderItems: [{ productId: 1, quantity: 1e300 }] }))).toEqual([["orderItems.0.quantity", "quantity must be a whole number"]]);
    expect(issues(orderInputSchema.safeParse({ ...order, customerPhone: 771234567 }))).toEqual([["customerPhone", 'Phone number must be text, such as "0771234567"']]);
    expect(issues(orderInputSchema.safeParse({ ...order, customerPhone: undefined }))).toEqual([["customerPhone", "Please enter your phone number"]]);
    // Written as people write it, brackets and dots too; but a phone number has digits.
    for (const [phone, kept] of [
      ["(077) 123-4567", "077 123-4567"],
      ["+94 77.123.4567", "+94 77 123 4567"],
    ]) {
      const parsed = orderInputSchema.safeParse({ ...order, customerPhone: phone });
      expect(issues(parsed), phone).toEqual([]);
      // Kept with spaces for the brackets and dots, which the back office's phone search does not skip.
      expect(parsed.data?.customerPhone).toBe(kept);
    }
    expect(issues(orderInputSchema.safeParse({ ...order, customerPhone: "(--) ---" }))).toEqual([["customerPhone", "Please enter a valid phone number"]]);
    expect(issues(orderInputSchema.safeParse({ ...order, orderItems: [{ productId: 0, quantity: 1 }] }))).toEqual([["orderItems.0.productId", "productId must be at least 1"]]);
  });

  it("a product's name, a size's label and a picture's id of the wrong type or out of range", () => {
    const product = { name: "Runner", brand: "Stride", description: "Light", price: 12500, category: "Gents", stockQuantity: 5, releaseDate: "2026-01-15" };
    expect(issues(productInputSchema.safeParse({ ...product, name: 42 }))).toEqual([["name", "Name must be text"]]);
    expect(issues(productInputSchema.safeParse({ ...product, sizes: [{ label: 42, stockQuantity: 1 }] }))).toEqual([["sizes.0.label", "A size's label must be text"]]);
    expect(issues(picturesInputSchema.safeParse([{ id: 0 }]))).toEqual([["0.id", "A picture's id must be at least 1"]]);
    expect(issues(picturesInputSchema.safeParse([{ id: 1.5 }]))).toEqual([["0.id", "A picture's id must be a whole number"]]);
  });

  it("a size's stockWas below zero", () => {
    const product = { name: "Runner", brand: "Stride", description: "Light", price: 12500, category: "Gents", stockQuantity: 5, releaseDate: "2026-01-15" };
    const sizes = [{ label: "EU 40", stockQuantity: 1, stockWas: -5 }];
    expect(issues(productInputSchema.safeParse({ ...product, sizes }))).toEqual([["sizes.0.stockWas", "A size's stockWas cannot be below zero"]]);
  });

  it("a profile's phone sent as a number; blank is allowed", () => {
    const base = { name: "Nimal", email: "nimal@example.com" };
    expect(issues(profileSchema.safeParse({ ...base, phone: 771234567 }))).toEqual([["phone", 'Phone number must be text, such as "0771234567"']]);
    expect(profileSchema.parse({ ...base, phone: "" }).phone).toBe("");
    expect(issues(profileSchema.safeParse({ ...base, phone: "12345" }))).toEqual([["phone", "Phone number must be exactly 10 digits"]]);
  });
});
