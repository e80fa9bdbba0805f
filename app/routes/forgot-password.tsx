import { useEffect, useRef } from "react";
import { data, Form, Link, useActionData, useNavigation } from "react-router";

import { AuthCard } from "~/components/AuthCard";
import { Field, FormAlert, useFocusOnRefusal } from "~/components/Field";
import { waitWhileSending } from "~/lib/client-action";
import { parseForm, readFormData } from "~/lib/forms";
import { HttpError, keepRetryAfter } from "~/lib/http";
import { forgotPasswordSchema } from "~/lib/schemas/auth";
import { mailerFor } from "~/services/outbox.server";
import { FORGOT_PASSWORD_ANSWER } from "~/lib/password-reset";
import { requestPasswordReset } from "~/services/password-reset.server";
import type { Route } from "./+types/forgot-password";

export const handle = { hideNav: true };

// 'Forgot password?': one e-mail field. The answer is the same whether or not an account uses the address, so this
// page tells nobody which e-mails have accounts; only a malformed address or too many requests answer otherwise.

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = parseForm(await readFormData(request), forgotPasswordSchema);
  if (!parsed.ok) return data({ sent: false as const, message: parsed.fieldErrors.email?.[0] ?? parsed.message, fieldErrors: parsed.fieldErrors }, { status: 400 });
  try {
    await requestPasswordReset(context.db, parsed.data.email, mailerFor(request, context));
    return data({ sent: true as const, message: FORGOT_PASSWORD_ANSWER, fieldErrors: {} });
  } catch (error) {
    if (error instanceof HttpError) return data({ sent: false as const, message: error.message, fieldErrors: {} }, { status: error.status, headers: error.headers });
    throw error;
  }
}

export default function ForgotPasswordPage() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = result?.fieldErrors as Record<string, string[] | undefined> | undefined;
  const form = useFocusOnRefusal(result?.sent ? null : result);
  // The form goes when the link is sent: the focus goes to what replaced it, not to the page's top.
  const sent = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result?.sent) sent.current?.focus();
  }, [result]);
  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter the e-mail of your account and we will send you a link to choose a new password."
      footer={
        <>
          Remembered it?{" "}
          <Link to="/login" className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
            Back to login
          </Link>
        </>
      }
    >
      {result?.sent ? (
        <div ref={sent} tabIndex={-1} className="space-y-4 outline-none" data-testid="forgot-password-sent">
          <FormAlert tone="success">{result.message}</FormAlert>
          <p className="text-sm text-slate-600 dark:text-slate-400">No e-mail after a few minutes? Check your spam folder, or ask again.</p>
          <Link to="/forgot-password" className="btn-secondary w-full">
            Ask again
          </Link>
        </div>
      ) : (
        <Form
          ref={form}
          method="post"
          className="space-y-4"
          noValidate
          onSubmit={waitWhileSending(submitting)}
        >
          {result?.message && !errors?.email && <FormAlert>{result.message}</FormAlert>}
          <Field name="email" label="Email" type="email" autoComplete="email" required errors={errors?.email} />
          <button type="submit" className="btn-primary w-full" aria-disabled={submitting || undefined}>
            {submitting ? "Sending..." : "Send reset link"}
          </button>
        </Form>
      )}
    </AuthCard>
  );
}

/** A refused attempt's 429 says when to try again, as the API's does. */
export const headers = keepRetryAfter;

export function meta() {
  return [{ title: "Forgot password | Stride" }, { name: "robots", content: "noindex" }];
}
