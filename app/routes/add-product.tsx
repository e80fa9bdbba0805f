import { data, redirect, useActionData } from "react-router";

import { ProductForm, type ProductFormResult } from "~/components/ProductForm";
import { answerOr } from "~/lib/client-action";
import { HttpError } from "~/lib/http";
import { keepWhenSentToLogin } from "~/lib/kept-form";
import { readProductForm } from "~/lib/product-form.server";
import { createProduct } from "~/services/catalogue.server";
import { requireAdmin, requireUser } from "~/services/session.server";
import type { Route } from "./+types/add-product";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  await requireAdmin(request, context, url);
  return null;
}

// A session that ended under the form sends it to the login page: what was typed is kept for after it (ProductForm).
export const clientAction = ({ request, serverAction }: Route.ClientActionArgs) =>
  answerOr(
    () => keepWhenSentToLogin(request, "/add_product", serverAction),
    () => ({ message: "Error adding product: the server did not answer.", fieldErrors: undefined }),
  );

export async function action({ request, context, url }: Route.ActionArgs) {
  // The role is judged with whom the form was rendered for, once it is read (readProductForm).
  const form = await readProductForm(request, await requireUser(request, context, url));
  if (!form.ok) return data({ message: form.message, fieldErrors: form.fieldErrors }, { status: form.status });
  try {
    const product = await createProduct(context.db, context.cloudflare.env.BUCKET, form.input, [...(form.pictures.first ? [form.pictures.first] : []), ...form.pictures.added]);
    return redirect(`/product/${product.id}?saved=1`);
  } catch (error) {
    if (error instanceof HttpError) return data({ message: `Error adding product: ${error.message}.`, fieldErrors: error.fieldErrors }, { status: error.status });
    throw error;
  }
}

export default function AddProductPage() {
  const result = useActionData<typeof action>() as ProductFormResult | undefined;
  return (
    <div className="back-office-page">
      <h1 className="text-2xl font-bold tracking-tight">Add Product</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">New products appear on the shop as soon as they are saved.</p>
      <div className="mt-8">
        <ProductForm result={result} submitLabel="Add Product" pendingLabel="Adding..." />
      </div>
    </div>
  );
}

export function meta() {
  return [{ title: "Add Product | Stride" }, { name: "robots", content: "noindex" }];
}

/**
 * Every error goes on to the app's (root.tsx), as it would without this; but with a boundary of its own the route's
 * failed action leaves the root's loader to run, so the app's error page, the refusal of a form posted without
 * JavaScript after another account logged in (adminFormRefusal) among them, has the shopper's theme and bar.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps): never {
  throw error;
}
