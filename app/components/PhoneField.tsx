import { useState } from "react";

import { PHONE_DIGITS } from "~/lib/constants";
import { Field } from "./Field";

/** Digits only, at most ten, as the shopper types. */
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
      maxLength={PHONE_DIGITS}
      value={phone}
      onChange={(event) => setPhone(event.target.value.replace(/\D/g, "").slice(0, PHONE_DIGITS))}
      hint={`${PHONE_DIGITS} digits, e.g. 0771234567`}
      errors={errors}
    />
  );
}
