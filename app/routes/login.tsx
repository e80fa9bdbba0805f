import { data, Form, Link, useActionData, useNavigation, useSearchParams } from "react-router";

import { AuthCard } from "~/components/AuthCard";
import { Field, FormAlert, PasswordField, useFocusOnRefusal } from "~/components/Field";
import { answerOr, submitted } from "~/lib/client-action";
import { postedValues } from "~/lib/form-values";
import { parseForm, readFormData } from "~/lib/forms";
import { HttpError, keepRetryAfter } from "~/lib/http";
import { INVALID_CREDENTIALS, loginSchema } from "~/lib/schemas/auth";
import { login } from "~/services/auth.server";
import { afterLoginPath, redirectIfLoggedIn, startSession } from "~/services/session.server";
import type { Route } from "./+types/login";

export const handle = { hideNav: true };

/** After a password reset (/login?reset=1). */
const RESET_DONE_LOGIN = "Your password has been changed. Log in with your new password.";

/** SPEC §8's words when a session ended under a form: the add-product form's, or the profile's (and every other). */
function sessionExpiredMessage(redirectTo: string | null): string {
  return redirectTo?.startsWith("/add_product") || redirectTo?.startsWith("/product/update/") ? "Session expired! Please login again." : "Session expired. Please login again.";
}

export function loader({ request, context, url }: Route.LoaderArgs) {
  return redirectIfLoggedIn(request, context, url);
}

export const clientAction = async ({ request, serverAction }: Route.ClientActionArgs) => {
  const values = postedValues(await submitted(request), ["email"]);
  return answerOr(serverAction, () => ({ message: INVALID_CREDENTIALS, fieldErrors: {}, values }));
};

export async function action({ request, context, url }: Route.ActionArgs) {
  const form = await readFormData(request);
  const parsed = parseForm(form, loginSchema);
  const values = postedValues(form, ["email"]);
  if (!parsed.ok) return data({ message: INVALID_CREDENTIALS, fieldErrors: parsed.fieldErrors, values }, { status: 400 });
  try {
    const { token, user } = await login(context.db, parsed.data, context.cloudflare.env.JWT_SECRET);
    return startSession(request, context, user.id, token, afterLoginPath(user, url.searchParams.get("redirect")));
  } catch (error) {
    if (error instanceof HttpError) return data({ message: error.message, fieldErrors: {}, values }, { status: error.status, headers: error.headers });
    throw error;
  }
}

export default function LoginPage() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = result?.fieldErrors as Record<string, string[] | undefined> | undefined;
  const form = useFocusOnRefusal(result);
  const redirectTo = searchParams.get("redirect");
  const registerHref = redirectTo ? `/register?${new URLSearchParams({ redirect: redirectTo })}` : "/register";

  return (
    <AuthCard
      title="Welcome back"
      subtitle="Log in to check out, follow your orders and review your shoes."
      footer={
        <>
          New to Stride?{" "}
          <Link to={registerHref} className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
            Create an account
          </Link>
        </>
      }
    >
      {/* Labels only: both log in the same way, the account decides the role. */}
      <fieldset className="mb-5 grid grid-cols-2 rounded-xl bg-slate-100 p-1 text-sm font-semibold dark:bg-slate-800">
        <legend className="sr-only">Login as</legend>
        {["Customer Login", "Admin Login"].map((label, index) => (
          <label
            key={label}
            className="flex min-h-11 cursor-pointer items-center justify-center rounded-lg text-slate-600 has-checked:bg-white has-checked:text-slate-900 has-checked:shadow-sm has-focus-visible:outline-2 has-focus-visible:outline-brand-500 dark:text-slate-300 dark:has-checked:bg-slate-950 dark:has-checked:text-white"
          >
            <input type="radio" name="loginAs" value={index === 0 ? "customer" : "admin"} defaultChecked={index === 0} className="sr-only" form="login-form" />
            {label}
          </label>
        ))}
      </fieldset>

      <Form ref={form} method="post" id="login-form" className="space-y-4" noValidate>
        {result?.message ? (
          <FormAlert>{result.message}</FormAlert>
        ) : searchParams.get("reset") === "1" ? (
          <FormAlert tone="success">{RESET_DONE_LOGIN}</FormAlert>
        ) : (
          searchParams.get("expired") === "1" && <FormAlert>{sessionExpiredMessage(redirectTo)}</FormAlert>
        )}
        <Field name="email" label="Email" type="email" autoComplete="email" required errors={errors?.email} defaultValue={result?.values.email} />
        <PasswordField name="password" label="Password" autoComplete="current-password" required errors={errors?.password} />
        <p className="-mt-2 text-right text-sm">
          <Link to="/forgot-password" className="inline-flex min-h-11 items-center font-semibold text-brand-700 hover:underline dark:text-brand-300">
            Forgot password?
          </Link>
        </p>
        <button type="submit" className="btn-primary w-full" disabled={submitting}>
          {submitting ? "Logging in..." : "Login"}
        </button>
      </Form>
    </AuthCard>
  );
}

/** A refused attempt's 429 says when to try again, as the API's does. */
export const headers = keepRetryAfter;

export function meta() {
  return [{ title: "Login | Stride" }, { name: "description", content: "Log in to your Stride account." }];
}
