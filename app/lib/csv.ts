// CSV as RFC 4180 writes it (lines end in CRLF; a field holding a quote, comma or line break is quoted), made safe to
// open in a spreadsheet: text that starts with =, +, -, @, a tab or a carriage return would be read as a formula
// (OWASP "CSV injection"), so such text gets a leading apostrophe, which spreadsheets show as text and do not print.
// A spreadsheet set to split on semicolons or tabs (Excel in many locales, LibreOffice's import) would start a new cell
// inside "Ann;=cmd|...", past the guard, so text holding either is quoted too: importers keep a quoted field whole.

const FORMULA_START = /^[=+\-@\t\r]/;

/** One field. Numbers are written as they are (a negative number is a number, not a formula); text is guarded. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(fields: ReadonlyArray<string | number | null | undefined>): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}
