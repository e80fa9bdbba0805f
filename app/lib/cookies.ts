/** Reads one cookie from a Cookie header. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

export interface CookieOptions {
  maxAge?: number;
  httpOnly?: boolean;
  secure?: boolean;
}

export function serializeCookie(name: string, value: string, { maxAge, httpOnly = true, secure = true }: CookieOptions = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", "SameSite=Lax"];
  if (maxAge !== undefined) parts.push(`Max-Age=${maxAge}`);
  if (httpOnly) parts.push("HttpOnly");
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

/** Browsers drop Secure cookies on plain http, which is how the shop runs on localhost. */
export function isSecureRequest(request: Request): boolean {
  const { protocol, hostname } = new URL(request.url);
  return protocol === "https:" || !["localhost", "127.0.0.1", "[::1]"].includes(hostname);
}
