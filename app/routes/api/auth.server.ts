import { z } from "zod";

import { apiResource, endpoint, json } from "~/lib/api.server";
import { loginResponseSchema, loginSchema, profileSchema, registerSchema, userSchema } from "~/lib/schemas/auth";
import { listUsers, login, registerUser, updateProfile } from "~/services/auth.server";
import { getSession } from "~/services/session.server";

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
    summary: "Update the logged-in user's profile; a blank or missing password keeps the current one",
    auth: "user",
    body: profileSchema,
    responses: { 200: { description: "The updated user", schema: userSchema }, 400: errors[400], 401: errors[401], 409: { description: "E-mail already registered" } },
    handler: async ({ context, user, body }) => json(await updateProfile(context.db, user.id, body)),
  }),
  "GET /admin/users": endpoint({
    summary: "Every user (admin)",
    auth: "admin",
    responses: { 200: { description: "All users", schema: z.array(userSchema) }, 401: errors[401], 403: { description: "Not an admin" } },
    handler: async ({ context }) => json(await listUsers(context.db)),
  }),
});
