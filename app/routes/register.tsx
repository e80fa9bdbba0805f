import { data, Form, Link, useActionData, useNavigation, useSearchParams } from "react-router";

import { AuthCard } from "~/components/AuthCard";
import { Field, FormAlert, PasswordField, useFocusOnRefusal } from "~/components/Field";
import { PhoneField } from "~/components/PhoneField";
import { answerOr, submitted } from "~/lib/client-action";
import { postedValues } from "~/lib/form-values";
import { parseForm, readFormData } from "~/lib/forms";
import { HttpError } from "~/lib/http";
import { registerFormSchema } from "~/lib/schemas/auth";
import { EMAIL_TAKEN, registerUser } from "~/services/auth.server";
import { afterLoginPath, redirectIfLoggedIn, startSession } from "~/services/session.server";
import { INITIAL_SESSION_VERSION, issueToken } from "~/services/token.server";
import type { Route } from "./+types/register";

export const handle = { hideNav: true };

const REGISTRATION_FAILED = "Registration failed. Please try again.";
/** Shown again after a refusal; the passwords are typed again. */
const KEPT_FIELDS = ["name", "email", "address", "phone"] as const;

export function loader({ request, context, url }: Route.LoaderArgs) {
  return redirectIfLoggedIn(request, context, url);
}

export const clientAction = async ({ request, serverAction }: Route.ClientActionArgs) => {
  const values = postedValues(await submitted(request), KEPT_FIELDS);
  return answerOr(serverAction, () => ({ message: REGISTRATION_FAILED, fieldErrors: {}, values }));
};

export async function action({ request, context, url }: Route.ActionArgs) {
  const form = await readFormData(request);
  const parsed = parseForm(form, registerFormSchema);
  const values = postedValues(form, KEPT_FIELDS);
  if (!parsed.ok) return data({ message: parsed.message, fieldErrors: parsed.fieldErrors, values }, { status: 400 });
  try {
    const user = await registerUser(context.db, parsed.data);
    // A new customer is logged in at once (a new row has the first session version).
    const token = await issueToken(user.id, INITIAL_SESSION_VERSION, context.cloudflare.env.JWT_SECRET);
    // The page it lands on welcomes the new customer.
    return startSession(request, context, user.id, token, afterLoginPath(user, url.searchParams.get("redirect")), { welcome: true });
  } catch (error) {
    if (error instanceof HttpError) {
      // An e-mail with an account already: marked on its field, and the way in for its owner offered beside it.
      const emailTaken = error.message === EMAIL_TAKEN;
      return data({ message: error.message || REGISTRATION_FAILED, fieldErrors: emailTaken ? { email: [EMAIL_TAKEN] } : {}, values, emailTaken }, { status: error.status });
    }
    throw error;
  }
}

export default function RegisterPage() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = result?.fieldErrors as Record<string, string[] | undefined> | undefined;
  const form = useFocusOnRefusal(result);
  const redirectTo = searchParams.get("redirect");
  const loginPath = redirectTo ? `/login?${new URLSearchParams({ redirect: redirectTo })}` : "/login";
  const values = result?.values;
  const alertLink = "font-semibold underline hover:no-underline";

  return (
    <AuthCard
      title="Create your account"
      subtitle="Check out faster, follow your orders and review what you bought."
      footer={
        <>
          Already have an account?{" "}
          <Link to={loginPath} className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
            Login
          </Link>
        </>
      }
    >
      <Form ref={form} method="post" className="space-y-4" noValidate>
        {result?.message && (
          <FormAlert>
            {result.message}
            {"emailTaken" in result && result.emailTaken && (
              <>
                . If it is yours,{" "}
                <Link to={loginPath} className={alertLink}>
                  log in
                </Link>{" "}
                or{" "}
                <Link to="/forgot-password" className={alertLink}>
                  reset your password
                </Link>
                .
              </>
            )}
          </FormAlert>
        )}
        <Field name="name" label="Name" autoComplete="name" required errors={errors?.name} defaultValue={values?.name} />
        <Field name="email" label="Email" type="email" autoComplete="email" required errors={errors?.email} defaultValue={values?.email} />
        <div className="grid gap-4 sm:grid-cols-2">
          <PasswordField name="password" label="Password" autoComplete="new-password" required minLength={6} errors={errors?.password} />
          <PasswordField name="confirmPassword" label="Confirm password" autoComplete="new-password" required errors={errors?.confirmPassword} />
        </div>
        <Field name="address" label="Address" autoComplete="street-address" required errors={errors?.address} defaultValue={values?.address} />
        <PhoneField errors={errors?.phone} defaultValue={values?.phone} />
        <button type="submit" className="btn-primary w-full" disabled={submitting}>
          {submitting ? "Creating account..." : "Register"}
        </button>
      </Form>
    </AuthCard>
  );
}

export function meta() {
  return [{ title: "Register | Stride" }, { name: "description", content: "Create a Stride account." }];
}
