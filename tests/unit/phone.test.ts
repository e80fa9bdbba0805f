import { describe, expect, it } from "vitest";

import { groupedPhone, phoneDigits } from "~/lib/phone";

describe("phoneDigits: what the phone field keeps of what was typed or pasted", () => {
  it("keeps the digits of a number written with spaces, dashes or brackets", () => {
    expect(phoneDigits("077 123 4567")).toBe("0771234567");
    expect(phoneDigits("077-123-4567")).toBe("0771234567");
    expect(phoneDigits("(011) 234 5678")).toBe("0112345678");
  });

  it("turns a Sri Lankan number written internationally into the national one", () => {
    expect(phoneDigits("+94771234567")).toBe("0771234567");
    expect(phoneDigits("+94 77 123 4567")).toBe("0771234567");
    expect(phoneDigits("0094 77 123 4567")).toBe("0771234567");
  });

  it("keeps at most ten digits as they come, and leaves a short number short", () => {
    expect(phoneDigits("077123456789")).toBe("0771234567");
    expect(phoneDigits("9477")).toBe("9477");
    expect(phoneDigits("abc")).toBe("");
  });
});

describe("groupedPhone: a number as the back office's spreadsheet shows it", () => {
  it("groups a Sri Lankan number, national or international, as it is written at home", () => {
    for (const typed of ["0771234567", "077 123 4567", "077-123-4567", "(077) 123 4567", "+94771234567", "+94 77 123 4567", "0094 77 123 4567", "94771234567"]) {
      expect(groupedPhone(typed), typed).toBe("077 123 4567");
    }
  });

  it("leaves anything else as typed: a foreign number, one digit too many or too few, a plus inside", () => {
    for (const typed of ["+44 20 7946 0000", "07712345678", "077123456", "077+1234567", "1234567"]) expect(groupedPhone(typed)).toBe(typed);
  });
});
