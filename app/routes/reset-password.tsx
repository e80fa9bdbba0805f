import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";

import { AuthCard } from "~/components/AuthCard";
import { FormAlert, PasswordField, useFocusOnRefusal } from "~/components/Field";
import { parseForm, readFormData } from "~/lib/forms";
import { HttpError } from "~/lib/http";
import { resetPasswordFormSchema } from "~/lib/schemas/auth";
import { RESET_LINK_INVALID } from "~/lib/password-reset";
import { findUsableReset, resetPassword } from "~/services/password-reset.server";
import { clearSessionCookie } from "~/services/session.server";
import type { Route } from "./+types/reset-password";

export const handle = { hideNav: true };

// The page a reset link opens: /reset-password?token=... A link unknown, used or expired says so at once; a good one
// asks for the new password twice. Success ends every session of the account (this browser's too) and goes to /login.

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ context, url }: Route.LoaderArgs) {
  const token = url.searchParams.get("token")?.trim() ?? "";
  const usable = token.length > 0 && token.length <= 200 && (await findUsableReset(context.db, token)) !== null;
  return data({ token: usable ? token : null }, { headers: NO_STORE });
}

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = parseForm(await readFormData(request), resetPasswordFormSchema);
  if (!parsed.ok) {
    const invalidLink = parsed.fieldErrors.token !== undefined;
    return data({ message: invalidLink ? RESET_LINK_INVALID : parsed.message, fieldErrors: parsed.fieldErrors, invalidLink }, { status: 400, headers: NO_STORE });
  }
  try {
    await resetPassword(context.db, parsed.data);
  } catch (error) {
    if (error instanceof HttpError) return data({ message: error.message, fieldErrors: error.fieldErrors ?? {}, invalidLink: error.fieldErrors?.token !== undefined }, { status: error.status, headers: NO_STORE });
    throw error;
  }
  // Whatever session this browser had ended with the others.
  return redirect("/login?reset=1", { headers: { "Set-Cookie": clearSessionCookie(request) } });
}

export function headers() {
  return NO_STORE;
}

function InvalidLink({ message = RESET_LINK_INVALID }: { message?: string }) {
  return (
    <div className="space-y-4" data-testid="reset-link-invalid">
      <FormAlert>{message}</FormAlert>
      <Link to="/forgot-password" className="btn-primary w-full">
        Ask for a new link
      </Link>
    </div>
  );
}

export default function ResetPasswordPage() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = result?.fieldErrors as Record<string, string[] | undefined> | undefined;
  const form = useFocusOnRefusal(result);
  return (
    <AuthCard
      title="Choose a new password"
      subtitle="Every session of your account ends when you save it, on every device."
      footer={
        <Link to="/login" className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
          Back to login
        </Link>
      }
    >
      {!token || result?.invalidLink ? (
        <InvalidLink />
      ) : (
        <Form ref={form} method="post" className="space-y-4" noValidate>
          {result?.message && <FormAlert>{result.message}</FormAlert>}
          <input type="hidden" name="token" value={token} />
          <PasswordField name="password" label="New password" autoComplete="new-password" required errors={errors?.password} />
          <PasswordField name="confirmPassword" label="Confirm new password" autoComplete="new-password" required errors={errors?.confirmPassword} />
          <button type="submit" className="btn-primary w-full" disabled={submitting}>
            {submitting ? "Saving..." : "Save new password"}
          </button>
        </Form>
      )}
    </AuthCard>
  );
}

export function meta() {
  return [{ title: "Reset password | Stride" }, { name: "robots", content: "noindex" }, { name: "referrer", content: "no-referrer" }];
}
