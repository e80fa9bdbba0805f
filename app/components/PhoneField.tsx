import { useState } from "react";

import { PHONE_DIGITS } from "~/lib/constants";
import { phoneDigits } from "~/lib/phone";
import { Field } from "./Field";

/**
 * Digits only, at most ten, as the shopper types or pastes. No maxLength: it would cut a pasted "077 123 4567" to ten
 * characters before the spaces are taken out.
 */
export function PhoneField({ errors, defaultValue = "" }: { errors?: string[]; defaultValue?: string }) {
  const [phone, setPhone] = useState(defaultValue);
  return (
    <Field
      name="phone"
      label="Phone"
      type="tel"
      inputMode="numeric"
      autoComplete="tel-national"
      pattern={`\\d{${PHONE_DIGITS}}`}
      value={phone}
      onChange={(event) => setPhone(phoneDigits(event.target.value))}
      hint={`${PHONE_DIGITS} digits, e.g. 0771234567`}
      errors={errors}
    />
  );
}
