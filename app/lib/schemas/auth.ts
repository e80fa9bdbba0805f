import { plainText, typeError, z } from "../zod";
import { EMAIL_MAX, PASSWORD_MIN, PHONE_DIGITS, ROLES } from "../constants";

// One shape per input, shared by the forms, the screen actions, the API routes and the OpenAPI document.

/** SPEC §8: a login refused, whatever the reason. */
export const INVALID_CREDENTIALS = "Invalid email or password.";
/** A required text field: missing or blank "X is required", of another type "X must be text". */
const requiredText = (label: string) =>
  z
    .string({ error: typeError(`${label} is required`, `${label} must be text`) })
    .trim()
    .min(1, `${label} is required`);
const name = requiredText("Name").max(100, "Name must be at most 100 characters").check(plainText("Name"));
const emailText = requiredText("Email").toLowerCase().max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`);
const email = emailText.pipe(z.email("Please enter a valid email address"));
const phoneText = z.string({ error: typeError("Phone number is required", "Phone number must be text, such as \"0771234567\"") }).trim();
const PHONE_MESSAGE = `Phone number must be exactly ${PHONE_DIGITS} digits`;
const phone = phoneText.regex(new RegExp(`^\\d{${PHONE_DIGITS}}$`), PHONE_MESSAGE);
const newPassword = z.string({ error: typeError("Password is required", "Password must be text") }).min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters long`).max(200, "Password is too long");

export const registerSchema = z.object({
  name,
  email,
  password: newPassword,
  address: requiredText("Address").max(500, "Address must be at most 500 characters").check(plainText("Address", { lines: true })),
  phone,
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const loginSchema = z.object({
  // Any text: an address no account can have is a login refused like any other (401 INVALID_CREDENTIALS), not bad input.
  email: emailText,
  password: z.string({ error: typeError("Password is required", "Password must be text") }).min(1, "Password is required").max(200, "Password is too long"),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const profileSchema = z.object({
  name,
  email,
  // Both may be blank (SPEC: only name and e-mail are required); left out of an API call, each keeps its current value.
  address: z
    .string({ error: typeError("Address must be text") })
    .trim()
    .max(500, "Address must be at most 500 characters")
    .check(plainText("Address", { lines: true }))
    .optional(),
  phone: phoneText.regex(new RegExp(`^(\\d{${PHONE_DIGITS}})?$`), PHONE_MESSAGE).optional(),
  // Blank or missing keeps the current password.
  password: z
    .union([z.literal(""), newPassword])
    .nullish()
    .transform((value) => value || undefined),
});
export type ProfileInput = z.infer<typeof profileSchema>;

const passwordsMatch = <T extends { password?: string | null; confirmPassword?: string }>(value: T) =>
  (value.password ?? "") === (value.confirmPassword ?? "");
const matchMessage = { message: "Passwords do not match", path: ["confirmPassword"] };

/** POST /api/auth/forgot-password and the /forgot-password form. */
export const forgotPasswordSchema = z.object({ email });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** POST /api/auth/reset-password: the link's token and a new password under the registration's and profile's rules. */
export const resetPasswordSchema = z.object({
  token: z.string({ error: "The reset link is missing its token" }).trim().min(1, "The reset link is missing its token").max(200, "The reset link is invalid"),
  password: newPassword,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** The register screen: the API's fields plus the confirmation. */
export const registerFormSchema = registerSchema.extend({ confirmPassword: z.string() }).refine(passwordsMatch, matchMessage);
/** The profile screen: the API's fields plus the confirmation. */
export const profileFormSchema = profileSchema.extend({ confirmPassword: z.string().optional().default("") }).refine(passwordsMatch, matchMessage);
/** The /reset-password screen: the API's fields plus the confirmation. */
export const resetPasswordFormSchema = resetPasswordSchema.extend({ confirmPassword: z.string().optional().default("") }).refine(passwordsMatch, matchMessage);

export const userSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  role: z.enum(ROLES),
});
export type PublicUser = z.infer<typeof userSchema>;

/** The answer of both reset calls: a message, the same whatever the e-mail. */
export const messageSchema = z.object({ message: z.string() });

export const loginResponseSchema = z.object({
  token: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
});
