import { useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";

import { CATEGORIES } from "~/lib/constants";
import type { ProductView } from "~/lib/schemas/product";
import type { SizeView } from "~/lib/sizes";
import { Field, FormAlert, useErrorsUntilEdited, useFocusOnRefusal } from "./Field";
import { KeptNote, useKeptForm } from "./KeptForm";
import { PictureFields } from "./PictureFields";
import { RenderedFor } from "./RenderedFor";
import { SizesEditor } from "./SizesEditor";

export interface ProductFormResult {
  message?: string;
  fieldErrors?: Record<string, string[] | undefined>;
  /** Another save of the product came first (409): the form offers to load the product as it now is. */
  changed?: boolean;
}

/**
 * The add and update product form: SPEC's fields (the stock quantity is the total of the sizes' stock, edited per size
 * in SizesEditor), field-level errors and the pictures (PictureFields).
 */
export function ProductForm({
  product,
  sizes,
  result,
  submitLabel,
  pendingLabel,
  restocking,
}: {
  product?: ProductView;
  sizes?: SizeView[];
  result?: ProductFormResult;
  submitLabel: string;
  pendingLabel: string;
  /** The size a low-stock list opened the form for (SizesEditor). */
  restocking?: number;
}) {
  // What was typed before a session ended under the form, back once after the login (app/lib/kept-form.ts).
  const kept = useKeptForm(product ? `/product/update/${product.id}` : "/add_product");
  const typed = (name: string) => kept?.get(name) ?? undefined;
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = result?.fieldErrors;
  // Written out below (not Fields), so their errors go on a change the way a Field's do.
  const descriptionErrors = useErrorsUntilEdited<HTMLTextAreaElement>(errors?.description);
  const categoryErrors = useErrorsUntilEdited<HTMLSelectElement>(errors?.category);

  // A refused save moves the focus to the first field at fault, else to the message (it was left mid-page).
  const form = useFocusOnRefusal(result);

  // While chosen pictures are being prepared (PictureFields), the save waits: its button stays focusable but says so
  // (aria-disabled), and a press or an Enter is ignored, so a file not yet prepared is never sent. The ref is read by
  // a submit in the same moment as the choice, before React has drawn the button again.
  const preparingNow = useRef(false);
  const [preparing, setPreparing] = useState(false);
  const onPreparing = (busy: boolean) => {
    preparingNow.current = busy;
    setPreparing(busy);
  };

  return (
    <>
      {kept && (
        <div className="mb-6">
          <KeptNote kept={kept} />
        </div>
      )}
      <Form
        key={kept ? "kept" : "loaded"}
        ref={form}
        method="post"
        encType="multipart/form-data"
        className="grid gap-8 lg:grid-cols-[1fr_360px]"
        noValidate
        onSubmit={(event) => {
          if (preparingNow.current) event.preventDefault();
        }}
      >
        <div className="space-y-5">
          {result?.message && (
            <FormAlert>
              {result.message}
              {result.changed && product && (
                <>
                  .{" "}
                  {/* A whole new page, so that every field, size and picture shows what was saved, not what was typed. */}
                  <a href={`/product/update/${product.id}`} className="font-semibold underline underline-offset-2">
                    Reload the product
                  </a>
                </>
              )}
            </FormAlert>
          )}
          <RenderedFor />
          {/* The version of the product this form shows: a save after another admin's save of it is refused (409). */}
          {/* Kept across a login: a save another admin made meanwhile is then refused, not overwritten. */}
          {product?.version !== undefined && <input type="hidden" name="version" value={typed("version") ?? product.version} />}
          <div className="grid gap-5 sm:grid-cols-2">
            <Field name="name" label="Name" required defaultValue={typed("name") ?? product?.name} errors={errors?.name} />
            <Field name="brand" label="Brand" required defaultValue={typed("brand") ?? product?.brand} errors={errors?.brand} />
          </div>
          <div>
            <label htmlFor="description" className="field-label">
              Description
            </label>
            <textarea
              id="description"
              name="description"
              rows={5}
              required
              maxLength={2000}
              defaultValue={typed("description") ?? product?.description}
              className="field-input"
              aria-invalid={descriptionErrors.shown ? true : undefined}
              aria-describedby={descriptionErrors.shown ? "description-error" : undefined}
              onInput={descriptionErrors.handleInput}
            />
            {descriptionErrors.shown && (
              <p id="description-error" className="field-error">
                {descriptionErrors.shown[0]}
              </p>
            )}
          </div>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field name="price" label="Price (LKR)" type="number" inputMode="decimal" min="0.01" step="0.01" required defaultValue={typed("price") ?? product?.price} errors={errors?.price} />
            <div>
              <label htmlFor="category" className="field-label">
                Category
              </label>
              <select id="category" name="category" required defaultValue={typed("category") ?? product?.category ?? ""} className="field-input" aria-invalid={categoryErrors.shown ? true : undefined} aria-describedby={categoryErrors.shown ? "category-error" : undefined} onInput={categoryErrors.handleInput}>
                <option value="" disabled>
                  Choose...
                </option>
                {CATEGORIES.map((category) => (
                  <option key={category} value={category}>
                    {category}
                  </option>
                ))}
              </select>
              {categoryErrors.shown && (
                <p id="category-error" className="field-error">
                  {categoryErrors.shown[0]}
                </p>
              )}
            </div>
          </div>
          <SizesEditor sizes={sizes} errors={errors} restocking={restocking} kept={kept} />
          <div className="grid gap-5 sm:grid-cols-2">
            <Field name="releaseDate" label="Release date" type="date" required defaultValue={typed("releaseDate") ?? product?.releaseDate} errors={errors?.releaseDate} />
            <label className="flex min-h-11 items-center gap-3 self-end rounded-lg border border-slate-300 px-3 dark:border-slate-700">
              <input type="checkbox" name="productAvailable" defaultChecked={kept ? kept.get("productAvailable") === "on" : (product?.productAvailable ?? true)} className="size-5 accent-brand-600" />
              <span className="text-sm font-medium">Product Available</span>
            </label>
          </div>
        </div>
        <div className="min-w-0">
          <PictureFields images={product?.images} isUpdate={!!product} errors={errors} onPreparing={onPreparing} kept={kept} />
        </div>
        {/* Last, after the pictures too: on a phone (one column) and from the keyboard the form ends with its actions. */}
        <div className="flex gap-3 lg:col-span-2">
          <Link to={product ? `/product/${product.id}` : "/"} className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={saving} aria-disabled={preparing || undefined}>
            {preparing ? "Preparing pictures..." : saving ? pendingLabel : submitLabel}
          </button>
        </div>
      </Form>
    </>
  );
}
