import { z } from "zod";

import { apiResource, endpoint, json } from "~/lib/api.server";
import { forgotPasswordSchema, loginResponseSchema, loginSchema, messageSchema, profileSchema, registerSchema, resetPasswordSchema, userSchema } from "~/lib/schemas/auth";
import { readCookie } from "~/lib/cookies";
import { pageHeaders } from "./paging.server";
import { ADMIN_PAGE_SIZE, adminUserListQuerySchema } from "~/lib/schemas/backoffice";
import { login, registerUser, updateProfile } from "~/services/auth.server";
import { listAllUsersMatching, listUsersPage } from "~/services/backoffice.server";
import { mailerFor } from "~/services/outbox.server";
import { FORGOT_PASSWORD_ANSWER, RESET_DONE, RESET_LINK_INVALID } from "~/lib/password-reset";
import { requestPasswordReset, resetPassword } from "~/services/password-reset.server";
import { CLEAR_BROWSER_CACHE, clearSessionCookie, endCurrentSession, forgetEndedSession, getSession, renewSession, SESSION_COOKIE } from "~/services/session.server";
import { issueToken } from "~/services/token.server";

/** The header that carries a fresh token after a password change (the one the request used has just ended). */
export const NEW_TOKEN_HEADER = "X-Auth-Token";

/** Whether the request came with the browser's session cookie (then the answer refreshes or clears it too). */
const hasSessionCookie = (request: Request) => readCookie(request.headers.get("Cookie"), SESSION_COOKIE) !== null;

const errors = {
  400: { description: "Bad input" },
  401: { description: "No token, or an invalid or expired one" },
} as const;

export const authApi = apiResource("/api/auth", {
  "POST /register": endpoint({
    summary: "Create a customer account (the role is always ROLE_CUSTOMER)",
    auth: "none",
    body: registerSchema,
    responses: { 201: { description: "The new user", schema: userSchema }, 400: errors[400], 409: { description: "E-mail already registered" } },
    handler: async ({ context, body }) => json(await registerUser(context.db, body), { status: 201 }),
  }),
  "POST /login": endpoint({
    summary: "Log in; the token lasts 24 hours",
    auth: "none",
    body: loginSchema,
    responses: {
      200: { description: "A bearer token and the user", schema: loginResponseSchema },
      400: errors[400],
      401: { description: "Invalid email or password." },
      429: { description: "Too many failed attempts for this e-mail; see Retry-After" },
    },
    handler: async ({ context, body }) => {
      const { token, user } = await login(context.db, body, context.cloudflare.env.JWT_SECRET);
      return json({ token, email: user.email, name: user.name, role: user.role });
    },
  }),
  "GET /validate": endpoint({
    summary: "Whether the bearer token (if any) is valid",
    auth: "none",
    responses: { 200: { description: "The verdict", schema: z.object({ valid: z.boolean() }) } },
    handler: async ({ request, context }) => json({ valid: (await getSession(request, context)).user !== null }),
  }),
  "GET /me": endpoint({
    summary: "The logged-in user",
    auth: "user",
    responses: { 200: { description: "The user", schema: userSchema }, 401: errors[401] },
    handler: ({ user }) => json(user),
  }),
  "PUT /me": endpoint({
    summary:
      "Update the logged-in user's profile; a blank or missing password keeps the current one. A new password ends every " +
      `session of the user (each earlier token answers 401), and the answer carries a fresh token in ${NEW_TOKEN_HEADER} (and in the session cookie when the request came with it)`,
    auth: "user",
    body: profileSchema,
    responses: { 200: { description: "The updated user", schema: userSchema }, 400: errors[400], 401: errors[401], 409: { description: "E-mail already registered" } },
    handler: async ({ request, context, user, body }) => {
      const { user: updated, newSessionVersion } = await updateProfile(context.db, user, body, mailerFor(request, context));
      if (newSessionVersion === null) return json(updated);
      const token = await issueToken(user.id, newSessionVersion, context.cloudflare.env.JWT_SECRET);
      const headers = new Headers({ [NEW_TOKEN_HEADER]: token });
      if (hasSessionCookie(request)) headers.append("Set-Cookie", renewSession(request, context, token));
      return json(updated, { headers });
    },
  }),
  "POST /logout": endpoint({
    summary: "End this session: the token (bearer or cookie) answers 401 from now on; the user's other devices stay logged in (a password change ends every session)",
    auth: "user",
    responses: { 204: { description: "Logged out" }, 401: errors[401] },
    handler: async ({ request, context }) => {
      await endCurrentSession(request, context);
      const headers = new Headers();
      if (hasSessionCookie(request)) {
        headers.append("Set-Cookie", clearSessionCookie(request));
        const forget = forgetEndedSession(request);
        if (forget) headers.append("Set-Cookie", forget);
        headers.set(CLEAR_BROWSER_CACHE.name, CLEAR_BROWSER_CACHE.value);
      }
      return new Response(null, { status: 204, headers });
    },
  }),
  "POST /forgot-password": endpoint({
    summary:
      "Ask for a password reset link by e-mail (valid 30 minutes, usable once). The answer is the same 200 and message " +
      "whether or not an account uses the e-mail; at most 5 requests per e-mail in 15 minutes",
    auth: "none",
    body: forgotPasswordSchema,
    responses: {
      200: { description: "Always the same message", schema: messageSchema },
      400: errors[400],
      429: { description: "Too many requests for this e-mail; see Retry-After" },
    },
    handler: async ({ request, context, body }) => {
      await requestPasswordReset(context.db, body.email, mailerFor(request, context));
      return json({ message: FORGOT_PASSWORD_ANSWER });
    },
  }),
  "POST /reset-password": endpoint({
    summary:
      "Set a new password with the token of a reset link (the password follows the registration's rules). Every session " +
      "of the account ends: each earlier token answers 401",
    auth: "none",
    body: resetPasswordSchema,
    responses: {
      200: { description: "The password is changed; log in with it", schema: messageSchema },
      400: { description: `Bad input, or "${RESET_LINK_INVALID}" (a token unknown, tampered, used or expired; fieldErrors.token)` },
    },
    handler: async ({ context, body }) => {
      await resetPassword(context.db, body);
      return json({ message: RESET_DONE });
    },
  }),
  "GET /admin/users": endpoint({
    summary:
      "Every user, in the order they registered (admin), optionally those matching q: every word of q starting a word of the name, in any order, or the e-mail or phone starting with q. Without page or pageSize, every match " +
      "(API.md's answer); with either, that page alone (pageSize 1 to 100, default 20), with X-Total-Count when the total is known exactly (always without q) " +
      "and a Link header (rel=\"next\") while more pages follow",
    auth: "admin",
    query: adminUserListQuerySchema,
    responses: {
      200: { description: "Users", schema: z.array(userSchema) },
      400: { description: "A bad page, pageSize or q (over 100 characters)" },
      401: errors[401],
      403: { description: "Not an admin" },
    },
    handler: async ({ url, context, query }) => {
      if (query.page === undefined && query.pageSize === undefined) return json(await listAllUsersMatching(context.db, query.q));
      const result = await listUsersPage(context.db, { q: query.q }, query.page ?? 1, query.pageSize ?? ADMIN_PAGE_SIZE);
      return json(result.items, { headers: pageHeaders(url, result) });
    },
  }),
});
