import { describe, expect, it } from "vitest";

import { insertProduct } from "./catalogue-helpers";
import { call } from "./helpers";

// The floors `npm run bench` measures the pages against. These tests check what they answer, never how fast.
describe("bench floors", () => {
  it("/healthz answers a constant ok that is never cached", async () => {
    const response = await call("/healthz");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.text()).toBe("ok");
  });

  it("/healthz/db answers the 24 newest products as plain JSON that is never cached", async () => {
    const ids: number[] = [];
    for (let day = 1; day <= 26; day++) ids.push(await insertProduct({ releaseDate: `2031-01-${String(day).padStart(2, "0")}` }));
    const response = await call("/healthz/db");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const rows = (await response.json()) as Array<Record<string, unknown>>;
    expect(rows.map((row) => row.id)).toEqual(ids.slice(2).reverse());
    expect(Object.keys(rows[0]).sort()).toEqual(["id", "name", "priceCents"]);
  });
});
