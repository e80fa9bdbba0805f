// CSV as RFC 4180 writes it (fields quoted when they hold a quote, comma or line break; lines end in CRLF), made safe to
// open in a spreadsheet: text that starts with =, +, -, @, a tab or a carriage return would be read as a formula
// (OWASP "CSV injection"), so such text gets a leading apostrophe, which spreadsheets show as text and do not print.

const FORMULA_START = /^[=+\-@\t\r]/;

/** One field. Numbers are written as they are (a negative number is a number, not a formula); text is guarded. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(fields: ReadonlyArray<string | number | null | undefined>): string {
  return `${fields.map(csvField).join(",")}\r\n`;
}
