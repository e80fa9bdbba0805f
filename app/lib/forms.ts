import type { z } from "zod";

import type { FieldErrors } from "./http";

export type FormResult<T> = { ok: true; data: T } | { ok: false; fieldErrors: FieldErrors; message: string };

/** The text fields of a form (files left out), validated by the same schema the API uses. */
export function parseForm<S extends z.ZodType>(formData: FormData, schema: S): FormResult<z.output<S>> {
  const values: Record<string, string> = {};
  for (const [key, value] of formData) if (typeof value === "string") values[key] = value;
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) (fieldErrors[String(issue.path[0] ?? "_")] ??= []).push(issue.message);
  return { ok: false, fieldErrors, message: result.error.issues[0]?.message ?? "Please check the form" };
}
