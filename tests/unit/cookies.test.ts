import { describe, expect, it } from "vitest";

import { isSecureRequest, readCookie, serializeCookie } from "~/lib/cookies";

describe("readCookie", () => {
  it("finds one cookie among several and decodes it", () => {
    expect(readCookie("a=1; stride_session=abc%20def; b=2", "stride_session")).toBe("abc def");
    expect(readCookie("theme=dark-theme", "theme")).toBe("dark-theme");
    expect(readCookie("a=1;b=2", "b")).toBe("2");
  });

  it("is null when the header or the cookie is missing", () => {
    expect(readCookie(null, "a")).toBeNull();
    expect(readCookie("", "a")).toBeNull();
    expect(readCookie("a=1; b=2", "c")).toBeNull();
  });

  it("matches whole names only", () => {
    expect(readCookie("xstride_session=evil; stride_session=good", "stride_session")).toBe("good");
    expect(readCookie("stride_session_old=1", "stride_session")).toBeNull();
  });

  it("keeps '=' inside the value (a JWT or base64)", () => {
    expect(readCookie("t=a.b.c==; u=1", "t")).toBe("a.b.c==");
  });

  it("takes the first of duplicates", () => {
    expect(readCookie("a=first; a=second", "a")).toBe("first");
  });

  it("is null for a malformed percent-encoding rather than throwing", () => {
    expect(readCookie("a=%E0%A4%A", "a")).toBeNull();
  });

  it("round-trips what serializeCookie writes", () => {
    const value = '[{"productId":1,"quantity":2}]';
    const pair = serializeCookie("stride_cart", value).split(";")[0];
    expect(readCookie(`x=1; ${pair}`, "stride_cart")).toBe(value);
  });
});

describe("serializeCookie", () => {
  it("defaults to Path=/, SameSite=Lax, HttpOnly and Secure, encoding the value", () => {
    expect(serializeCookie("n", "v w;x")).toBe("n=v%20w%3Bx; Path=/; SameSite=Lax; HttpOnly; Secure");
  });

  it("writes Max-Age, and leaves out HttpOnly or Secure when asked", () => {
    expect(serializeCookie("stride_session", "", { maxAge: 0, secure: false })).toBe("stride_session=; Path=/; SameSite=Lax; Max-Age=0; HttpOnly");
    expect(serializeCookie("theme", "dark-theme", { maxAge: 31536000, httpOnly: false, secure: false })).toBe(
      "theme=dark-theme; Path=/; SameSite=Lax; Max-Age=31536000",
    );
  });
});

describe("isSecureRequest", () => {
  const secure = (url: string) => isSecureRequest(new Request(url));
  it("is false on plain-http localhost only", () => {
    expect(secure("http://localhost:5173/login")).toBe(false);
    expect(secure("http://127.0.0.1:8787/")).toBe(false);
    expect(secure("http://[::1]/")).toBe(false);
  });

  it("is true over https and on any other host", () => {
    expect(secure("https://localhost/")).toBe(true);
    expect(secure("https://shop.example/login")).toBe(true);
    expect(secure("http://shop.example/login")).toBe(true);
  });
});
