import { DEFAULT_THEME, isTheme, type Theme } from "./constants";
import { readCookie, serializeCookie } from "./cookies";

export const THEME_COOKIE = "theme";
const ONE_YEAR = 365 * 24 * 60 * 60;

export function readTheme(request: Request): Theme {
  const value = readCookie(request.headers.get("Cookie"), THEME_COOKIE);
  return isTheme(value) ? value : DEFAULT_THEME;
}

export function themeCookie(theme: Theme, secure: boolean): string {
  // Not HttpOnly: nothing secret, and the page may read it.
  return serializeCookie(THEME_COOKIE, theme, { maxAge: ONE_YEAR, httpOnly: false, secure });
}
