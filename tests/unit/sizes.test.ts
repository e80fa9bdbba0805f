import { describe, expect, it } from "vitest";

import { CATEGORY_SIZES, SIZE_GUIDES } from "~/lib/sizes";

describe("the size guides", () => {
  it("cover every size each category is sold in, foot lengths growing with the EU size", () => {
    for (const [category, rows] of Object.entries(SIZE_GUIDES)) {
      expect(rows!.map((row) => `EU ${row.eu}`), category).toEqual(CATEGORY_SIZES[category as keyof typeof CATEGORY_SIZES]);
      const feet = rows!.map((row) => Number(row.footCm));
      expect(feet, category).toEqual([...feet].sort((a, b) => a - b));
    }
  });

  it("mark the Kids' US sizes C (little kids) up to 13, then Y (big kids) from 1, so 1Y reads as larger than 13C", () => {
    const us = SIZE_GUIDES.Kids!.map((row) => row.us);
    const firstY = us.findIndex((size) => size.endsWith("Y"));
    expect(us.slice(0, firstY).every((size) => size.endsWith("C"))).toBe(true);
    expect(us.slice(firstY).every((size) => size.endsWith("Y"))).toBe(true);
    expect([us[firstY - 1], us[firstY]]).toEqual(["13C", "1Y"]);
  });
});
