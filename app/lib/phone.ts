import { PHONE_DIGITS } from "./constants";

/** Sri Lanka's country code: +94 77 123 4567 is 077 123 4567 at home. */
const COUNTRY_CODE = "94";

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
