import { describe, expect, it } from "vitest";

import { csvField, csvLine } from "~/lib/csv";

describe("csvField", () => {
  it("leaves plain text and numbers alone", () => {
    expect(csvField("Nimal Perera")).toBe("Nimal Perera");
    expect(csvField(12500.5)).toBe("12500.5");
    expect(csvField(-3)).toBe("-3");
    expect(csvField(null)).toBe("");
  });

  it("quotes a field with a comma, a quote or a line break, doubling quotes", () => {
    expect(csvField("12, Galle Road")).toBe('"12, Galle Road"');
    expect(csvField('The "Runner"')).toBe('"The ""Runner"""');
    expect(csvField("Line 1\nLine 2")).toBe('"Line 1\nLine 2"');
    expect(csvField("a\r\nb")).toBe('"a\r\nb"');
  });

  it("guards text that a spreadsheet would run as a formula", () => {
    expect(csvField("=HYPERLINK(\"http://evil\")")).toBe("\"'=HYPERLINK(\"\"http://evil\"\")\"");
    expect(csvField("+94 77 123 4567")).toBe("'+94 77 123 4567");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tcmd")).toBe("\"'\tcmd\"");
    expect(csvField("a=b")).toBe("a=b");
  });

  it("quotes text with a semicolon or a tab, so a spreadsheet splitting on them keeps it one guarded cell", () => {
    expect(csvField("Ann;=cmd|' /C calc'!A0;x")).toBe("\"Ann;=cmd|' /C calc'!A0;x\"");
    expect(csvField("Ann\t=cmd")).toBe('"Ann\t=cmd"');
    expect(csvField("=1;2")).toBe("\"'=1;2\"");
  });

  it("csvLine joins with commas and ends with CRLF", () => {
    expect(csvLine([1, "a,b", "=x"])).toBe('1,"a,b",\'=x\r\n');
  });
});
