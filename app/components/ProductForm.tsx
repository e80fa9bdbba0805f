import { useEffect, useState } from "react";
import { Form, Link, useNavigation } from "react-router";

import { CATEGORIES } from "~/lib/constants";
import type { ProductView } from "~/lib/schemas/product";
import type { SizeView } from "~/lib/sizes";
import { Field, FormAlert } from "./Field";
import { IMAGE_SIZE } from "./ProductImage";
import { SizesEditor } from "./SizesEditor";

export interface ProductFormResult {
  message?: string;
  fieldErrors?: Record<string, string[] | undefined>;
}

/**
 * The add and update product form: SPEC's fields (the stock quantity is the total of the sizes' stock, edited per size
 * in SizesEditor), field-level errors and a preview of the chosen picture.
 */
export function ProductForm({
  product,
  sizes,
  result,
  submitLabel,
  pendingLabel,
}: {
  product?: ProductView;
  sizes?: SizeView[];
  result?: ProductFormResult;
  submitLabel: string;
  pendingLabel: string;
}) {
  const navigation = useNavigation();
  const saving = navigation.state !== "idle" && navigation.formMethod === "POST";
  const [preview, setPreview] = useState<string | null>(product?.imageUrl ?? null);
  const errors = result?.fieldErrors;
  useEffect(() => () => {
    if (preview?.startsWith("blob:")) URL.revokeObjectURL(preview);
  }, [preview]);

  return (
    <Form method="post" encType="multipart/form-data" className="grid gap-8 lg:grid-cols-[1fr_320px]" noValidate>
      <div className="space-y-5">
        {result?.message && <FormAlert>{result.message}</FormAlert>}
        <div className="grid gap-5 sm:grid-cols-2">
          <Field name="name" label="Name" required defaultValue={product?.name} errors={errors?.name} />
          <Field name="brand" label="Brand" required defaultValue={product?.brand} errors={errors?.brand} />
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
            defaultValue={product?.description}
            className="field-input"
            aria-invalid={errors?.description ? true : undefined}
            aria-describedby={errors?.description ? "description-error" : undefined}
          />
          {errors?.description && (
            <p id="description-error" className="field-error">
              {errors.description[0]}
            </p>
          )}
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field name="price" label="Price (LKR)" type="number" inputMode="decimal" min={0} step="0.01" required defaultValue={product?.price} errors={errors?.price} />
          <div>
            <label htmlFor="category" className="field-label">
              Category
            </label>
            <select id="category" name="category" required defaultValue={product?.category ?? ""} className="field-input" aria-invalid={errors?.category ? true : undefined} aria-describedby={errors?.category ? "category-error" : undefined}>
              <option value="" disabled>
                Choose...
              </option>
              {CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {category}
                </option>
              ))}
            </select>
            {errors?.category && (
              <p id="category-error" className="field-error">
                {errors.category[0]}
              </p>
            )}
          </div>
        </div>
        <SizesEditor sizes={sizes} errors={errors} />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field name="releaseDate" label="Release date" type="date" required defaultValue={product?.releaseDate} errors={errors?.releaseDate} />
          <label className="flex min-h-11 items-center gap-3 self-end rounded-lg border border-slate-300 px-3 dark:border-slate-700">
            <input type="checkbox" name="productAvailable" defaultChecked={product?.productAvailable ?? true} className="size-5 accent-brand-600" />
            <span className="text-sm font-medium">Product Available</span>
          </label>
        </div>
        <div className="flex gap-3">
          <Link to={product ? `/product/${product.id}` : "/"} className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? pendingLabel : submitLabel}
          </button>
        </div>
      </div>
      <div>
        <Field
          name="imageFile"
          label={product ? "Image (leave empty to keep the current one)" : "Image"}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif"
          required={!product}
          errors={errors?.imageFile}
          hint="JPEG, PNG, WebP or GIF, at most 5 MB"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            setPreview(file ? URL.createObjectURL(file) : (product?.imageUrl ?? null));
          }}
          className="[&_input]:py-2"
        />
        <div className="mt-4 overflow-hidden rounded-2xl border border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
          {preview ? (
            <img src={preview} alt="Preview of the product image" width={IMAGE_SIZE} height={IMAGE_SIZE} className="aspect-square w-full object-cover" />
          ) : (
            <p className="flex aspect-square items-center justify-center p-6 text-center text-sm text-slate-500 dark:text-slate-400">The picture you choose shows here.</p>
          )}
        </div>
      </div>
    </Form>
  );
}
