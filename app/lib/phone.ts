import { PHONE_DIGITS } from "./constants";

/** Sri Lanka's country code: +94 77 123 4567 is 077 123 4567 at home. */
export const COUNTRY_CODE = "94";

/**
 * What the phone field keeps of what was typed or pasted: the digits, an international Sri Lankan number (+94 or
 * 0094) as the national one the shop asks for, and at most ten. Only the field's own help: the server checks the
 * ten digits whatever arrives.
 */
export function phoneDigits(text: string): string {
  let digits = text.replace(/\D/g, "");
  const national = PHONE_DIGITS - 1; // the digits after the national 0
  if (digits.length === COUNTRY_CODE.length + national && digits.startsWith(COUNTRY_CODE)) digits = `0${digits.slice(COUNTRY_CODE.length)}`;
  else if (digits.length === 2 + COUNTRY_CODE.length + national && digits.startsWith(`00${COUNTRY_CODE}`)) digits = `0${digits.slice(2 + COUNTRY_CODE.length)}`;
  return digits.slice(0, PHONE_DIGITS);
}

/**
 * The start of a phone number in both the forms customers write it, for a search: digits as typed, the national form
 * (0 77 ...) and the international one (94 77 ..., from +94 or 0094). A number that begins with neither is as typed.
 */
export function phoneForms(digits: string): string[] {
  const rest = digits.startsWith(`00${COUNTRY_CODE}`)
    ? digits.slice(2 + COUNTRY_CODE.length)
    : digits.startsWith(COUNTRY_CODE)
      ? digits.slice(COUNTRY_CODE.length)
      : digits.startsWith("0")
        ? digits.slice(1)
        : null;
  return rest ? [...new Set([digits, `0${rest}`, `${COUNTRY_CODE}${rest}`])] : [digits];
}

const SRI_LANKAN_NUMBER = new RegExp(`^(?:\\+${COUNTRY_CODE}|00${COUNTRY_CODE}|${COUNTRY_CODE}|0)(\\d{2})(\\d{3})(\\d{4})$`);

/**
 * A Sri Lankan number in any of the forms people write it (0771234567, +94 77 123 4567, 0094-77-1234567), grouped as
 * it is written at home: 077 123 4567; anything else as typed. Grouped, it stays text in a spreadsheet too, which would
 * read 0771234567 as the number 771,234,567 and drop the 0.
 */
export function groupedPhone(text: string): string {
  const number = SRI_LANKAN_NUMBER.exec(text.replace(/[\s().-]/g, ""));
  return number ? `0${number[1]} ${number[2]} ${number[3]}` : text;
}
