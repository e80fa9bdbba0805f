import type { FormEvent } from "react";
import { isRouteErrorResponse } from "react-router";

/**
 * A form's onSubmit while its answer is awaited: its button stays focusable (aria-disabled, so the focus stays on it)
 * and a second press or Enter waits instead of sending the form again.
 */
export const waitWhileSending = (sending: boolean) => (event: FormEvent) => {
  if (sending) event.preventDefault();
};

/**
 * A route's clientAction around its server action: the server's answer as before, and when there is none to read (a
 * dropped connection, an answer cut short, a fault on the server) `failed` in its place, so the form says what SPEC
 * says for a failure instead of the page giving way to the error page. Redirects and the server's own error answers
 * (a 413, say) pass through. Without JavaScript there is no clientAction: the browser shows its own error.
 */
export async function answerOr<T, F>(serverAction: () => Promise<T>, failed: (error: unknown) => F | Promise<F>): Promise<T | F> {
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response || isRouteErrorResponse(error)) throw error;
    console.error("The server could not answer", error);
    return failed(error);
  }
}

/** The text fields of a submission, read from a copy of it (the server action still sends the request itself). */
export async function submitted(request: Request): Promise<FormData> {
  return request.clone().formData();
}
