import { describe, expect, it } from "vitest";

import { phoneDigits } from "~/lib/phone";

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
