import { useEffect } from "react";
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";

import { AuthCard } from "~/components/AuthCard";
import { Field, FormAlert, FormStatus, PasswordField, useFocusOnRefusal } from "~/components/Field";
import { PhoneField } from "~/components/PhoneField";
import { RenderedFor } from "~/components/RenderedFor";
import { KeptNote, useKeptForm } from "~/components/KeptForm";
import { answerOr, waitWhileSending } from "~/lib/client-action";
import { keepWhenSentToLogin } from "~/lib/kept-form";
import { parseForm, readFormData } from "~/lib/forms";
import { HttpError } from "~/lib/http";
import { profileFormSchema } from "~/lib/schemas/auth";
import { updateProfile } from "~/services/auth.server";
import { mailerFor } from "~/services/outbox.server";
import { renewSession, requireFormUser, requireUser } from "~/services/session.server";
import { issueToken } from "~/services/token.server";
import type { Route } from "./+types/profile";

export const handle = { hideNav: true };

const UPDATE_FAILED = "Failed to update profile. Please try again.";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  return { user: await requireUser(request, context, url) };
}

// A session that ended under the form sends it to the login page: what was typed is kept for after it (never the
// passwords).
export const clientAction = ({ request, serverAction }: Route.ClientActionArgs) =>
  answerOr(
    () => keepWhenSentToLogin(request, PROFILE_KEPT, serverAction),
    () => ({ ok: false as const, message: UPDATE_FAILED, fieldErrors: {} }),
  );

const PROFILE_KEPT = "/profile";

export async function action({ request, context, url }: Route.ActionArgs) {
  const form = await readFormData(request);
  try {
    // The profile's own user, not whoever another tab logged in since (they would get this one's name and address).
    const user = await requireFormUser(request, context, url, form);
    const parsed = parseForm(form, profileFormSchema);
    if (!parsed.ok) return data({ ok: false as const, message: parsed.message, fieldErrors: parsed.fieldErrors }, { status: 400 });
    const { newSessionVersion } = await updateProfile(context.db, user, parsed.data, mailerFor(request, context));
    const result = { ok: true as const, message: "Profile updated successfully.", fieldErrors: {} };
    if (newSessionVersion === null) return result;
    // A new password ended every session, this browser's too: it gets a fresh token so it stays logged in.
    const token = await issueToken(user.id, newSessionVersion, context.cloudflare.env.JWT_SECRET);
    return data(result, { headers: { "Set-Cookie": renewSession(request, context, token) } });
  } catch (error) {
    if (error instanceof HttpError) return data({ ok: false as const, message: error.message || UPDATE_FAILED, fieldErrors: {} }, { status: error.status });
    throw error;
  }
}

export default function ProfilePage() {
  const { user } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = result?.fieldErrors as Record<string, string[] | undefined> | undefined;
  const form = useFocusOnRefusal(result?.ok ? null : result);
  // Once saved, the fields show what was stored (the server trims and normalises; a new password is not kept): a reset
  // to their defaults, which now hold the user as read again after the save. Not a new form (a key): that dropped the
  // focus on <body>, where the Save button keeps it now.
  const saved = result?.ok && navigation.state === "idle" ? result : null;
  const kept = useKeptForm(PROFILE_KEPT);
  useEffect(() => {
    if (saved) form.current?.reset();
  }, [saved, form]);

  return (
    <AuthCard title="Your profile" subtitle="Keep your contact details up to date for delivery.">
      <KeptNote kept={kept} />
      <Form
        key={kept ? "kept" : "loaded"}
        ref={form}
        method="post"
        className={`space-y-4 ${kept ? "mt-4" : ""}`}
        noValidate
        onSubmit={waitWhileSending(saving)}
      >
        <RenderedFor />
        <FormStatus message={saved ? saved.message : null} />
        {result && !result.ok && result.message && <FormAlert>{result.message}</FormAlert>}
        <Field name="name" label="Name" autoComplete="name" required defaultValue={kept?.get("name") ?? user.name} errors={errors?.name} />
        <Field name="email" label="Email" type="email" autoComplete="email" required defaultValue={kept?.get("email") ?? user.email} errors={errors?.email} />
        <Field name="address" label="Address" autoComplete="street-address" defaultValue={kept?.get("address") ?? user.address} errors={errors?.address} />
        <PhoneField defaultValue={kept?.get("phone") ?? user.phone} errors={errors?.phone} />
        <fieldset className="space-y-4 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
          <legend className="px-1 text-sm font-semibold">Change password</legend>
          <PasswordField name="password" label="New password" autoComplete="new-password" errors={errors?.password} />
          <PasswordField name="confirmPassword" label="Confirm new password" autoComplete="new-password" errors={errors?.confirmPassword} />
          <p className="text-xs text-slate-500 dark:text-slate-400">Optional: leave blank to keep your current password.</p>
        </fieldset>
        <div className="flex gap-3">
          <Link to="/" className="btn-secondary flex-1">
            Cancel
          </Link>
          <button type="submit" className="btn-primary flex-1 whitespace-nowrap px-3" aria-disabled={saving || undefined}>
            {saving ? "Saving..." : "Save changes"}
          </button>
        </div>
      </Form>
    </AuthCard>
  );
}

export function meta() {
  return [{ title: "Your profile | Stride" }, { name: "robots", content: "noindex" }];
}
