import { data, redirect, useActionData } from "react-router";

import { ProductForm, type ProductFormResult } from "~/components/ProductForm";
import { answerOr } from "~/lib/client-action";
import { HttpError } from "~/lib/http";
import { readProductForm } from "~/lib/product-form.server";
import { createProduct } from "~/services/catalogue.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/add-product";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  await requireAdmin(request, context, url);
  return null;
}

export const clientAction = ({ serverAction }: Route.ClientActionArgs) =>
  answerOr(serverAction, () => ({ message: "Error adding product: the server did not answer.", fieldErrors: undefined }));

export async function action({ request, context, url }: Route.ActionArgs) {
  await requireAdmin(request, context, url);
  const form = await readProductForm(request);
  if (!form.ok) return data({ message: form.message, fieldErrors: form.fieldErrors }, { status: 400 });
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
