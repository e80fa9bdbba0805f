import { data } from "react-router";
import type { z } from "zod";

import { readBoundedForm } from "./api.server";
import { HttpError, parseId, type FieldErrors } from "./http";
import { UNKNOWN_SIZE } from "./sizes";

export const FIX_FIELDS = "Please correct the highlighted fields.";

export type FormResult<T> = { ok: true; data: T } | { ok: false; fieldErrors: FieldErrors; message: string };

/** The text fields of a form (files left out), validated by the same schema the API uses. */
export function parseForm<S extends z.ZodType>(formData: FormData, schema: S): FormResult<z.output<S>> {
  const values: Record<string, string> = {};
  for (const [key, value] of formData) if (typeof value === "string") values[key] = value;
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) (fieldErrors[String(issue.path[0] ?? "_")] ??= []).push(issue.message);
  // Each message shows under its field; the summary only points there.
  return { ok: false, fieldErrors, message: FIX_FIELDS };
}

/**
 * A screen action's form (no files: those forms read theirs with their own limits): a POST without a form body is a
 * 400, never a 500, and one over 64 KiB a 413, read no further than that.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await readBoundedForm(request, 0, { field: "_", message: "Request body too large" });
  } catch (error) {
    if (error instanceof HttpError) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}

/**
 * A number field as the API would take it: blank is undefined; plain decimal notation (digits, a sign, a fraction) is
 * the number; anything else (1e2, 0x10, Infinity, " 5 6") stays text, so the schema or the caller refuses it as not a
 * number, where Number() would have read a number the form never showed.
 */
export function formNumber(value: FormDataEntryValue | null): number | string | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const text = value.trim();
  return /^-?\d{1,15}(\.\d{1,15})?$/.test(text) ? Number(text) : text;
}

/** The size a form picked (`sizeId`): absent or empty means none was chosen; anything else must be an id (else 400). */
export function readSizeId(form: FormData): number | undefined {
  const value = form.get("sizeId");
  if (value === null || value === "") return undefined;
  const id = parseId(value);
  if (id === null) throw new HttpError(400, UNKNOWN_SIZE, { sizeId: [UNKNOWN_SIZE] });
  return id;
}
