import { data, isRouteErrorResponse, Link, redirect, useActionData, useLoaderData, useSearchParams } from "react-router";

import { NotFoundPage } from "~/components/ErrorPage";
import { ProductForm, type ProductFormResult } from "~/components/ProductForm";
import { answerOr } from "~/lib/client-action";
import { FIX_FIELDS } from "~/lib/forms";
import { HttpError, routeId } from "~/lib/http";
import { keepWhenSentToLogin } from "~/lib/kept-form";
import { readProductForm } from "~/lib/product-form.server";
import { backOfficePath, savedReturn } from "~/lib/restock";
import { withStockMoves } from "~/lib/stock-moves.server";
import { getProductWithSizes, updateProduct } from "~/services/catalogue.server";
import { requireAdmin, requireUser } from "~/services/session.server";
import type { Route } from "./+types/update-product";

const UPDATE_FAILED = "Failed to update product. Please try again.";

export async function loader({ request, params, context, url }: Route.LoaderArgs) {
  await requireAdmin(request, context, url);
  try {
    const id = routeId(params.id);
    const { sizes, ...product } = await getProductWithSizes(context.db, id);
    return { product, sizes };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw data(null, { status: 404 });
    throw error;
  }
}

// A session that ended under the form sends it to the login page: what was typed is kept for after it (ProductForm).
export const clientAction = ({ request, params, serverAction }: Route.ClientActionArgs) =>
  answerOr(
    () => keepWhenSentToLogin(request, `/product/update/${params.id}`, serverAction),
    () => ({ message: UPDATE_FAILED, fieldErrors: undefined }),
  );

export async function action({ request, params, context, url }: Route.ActionArgs) {
  const poster = await requireUser(request, context, url);
  const id = routeId(params.id);
  // The role is judged with whom the form was rendered for, once it is read (readProductForm).
  const form = await readProductForm(request, poster);
  if (!form.ok) return data({ message: form.message, fieldErrors: form.fieldErrors }, { status: form.status });
  try {
    const { stockMoves } = await updateProduct(context.db, context.cloudflare.env.BUCKET, id, form.input, form.pictures);
    // Opened from a low-stock list, the form goes back to it, for the next size to restock; else to the product. The
    // page it lands on says "Product saved", and which sizes were saved as another stock than typed, and why.
    const back = backOfficePath(url.searchParams.get("back"));
    return redirect(await withStockMoves(back ? savedReturn(back, id) : `/product/${id}?saved=1`, stockMoves, id, context.cloudflare.env.JWT_SECRET));
  } catch (error) {
    // A rule only the save can check (no picture left) names its field, as the form's own checks do; a form older than
    // another save of the product (409) says so, so that the admin reloads; anything else failed.
    if (error instanceof HttpError) {
      if (error.status === 409) return data({ message: error.message, fieldErrors: undefined, changed: true }, { status: 409 });
      return data({ message: error.fieldErrors ? FIX_FIELDS : UPDATE_FAILED, fieldErrors: error.fieldErrors }, { status: error.status });
    }
    throw error;
  }
}

export default function UpdateProductPage() {
  const { product, sizes } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ProductFormResult | undefined;
  const [searchParams] = useSearchParams();
  const back = backOfficePath(searchParams.get("back"));
  const restocking = Number(searchParams.get("size")) || undefined;
  return (
    <div className="back-office-page">
      {back && (
        <Link to={back} className="inline-flex min-h-11 items-center text-sm text-slate-600 hover:underline dark:text-slate-400">
          ← {back.startsWith("/admin/stock") ? "Low stock" : "Back"}
        </Link>
      )}
      <h1 className="text-2xl font-bold tracking-tight">Update Product</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{product.name}</p>
      <div className="mt-8">
        <ProductForm product={product} sizes={sizes} result={result} submitLabel="Update Product" pendingLabel="Saving..." restocking={restocking} />
      </div>
    </div>
  );
}

export function meta() {
  return [{ title: "Update Product | Stride" }, { name: "robots", content: "noindex" }];
}

/** No such product: the not-found page. Anything else is the app's (root's ErrorBoundary). */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  throw error;
}
