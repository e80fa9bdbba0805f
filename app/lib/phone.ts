import { PHONE_DIGITS } from "./constants";

/** Sri Lanka's country code: +94 77 123 4567 is 077 123 4567 at home. */
export const COUNTRY_CODE = "94";

/** A Sri Lankan number's digits after its national 0. */
const SUBSCRIBER_DIGITS = PHONE_DIGITS - 1;

/**
 * The national form (0 and nine digits) of a Sri Lankan number's digits, written nationally (0...), internationally
 * (94... or 0094...), else null: the one reading of the country code the phone field and the back office share.
 */
function nationalNumber(digits: string): string | null {
  for (const prefix of ["0", COUNTRY_CODE, `00${COUNTRY_CODE}`]) {
    if (digits.length === prefix.length + SUBSCRIBER_DIGITS && digits.startsWith(prefix)) return `0${digits.slice(prefix.length)}`;
  }
  return null;
}

/**
 * What the phone field keeps of what was typed or pasted: the digits, an international Sri Lankan number (+94 or
 * 0094) as the national one the shop asks for, and at most ten. Only the field's own help: the server checks the
 * ten digits whatever arrives.
 */
export function phoneDigits(text: string): string {
  const digits = text.replace(/\D/g, "");
  return (nationalNumber(digits) ?? digits).slice(0, PHONE_DIGITS);
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

/**
 * A Sri Lankan number in any of the forms people write it (0771234567, +94 77 123 4567, 0094-77-1234567), grouped as
 * it is written at home: 077 123 4567; anything else as typed. Grouped, it stays text in a spreadsheet too, which would
 * read 0771234567 as the number 771,234,567 and drop the 0.
 */
export function groupedPhone(text: string): string {
  const written = /^\+?(\d+)$/.exec(text.replace(/[\s().-]/g, ""));
  const national = written && nationalNumber(written[1]);
  return national ? `${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}` : text;
}
