import { parseWith } from "./api.server";
import { FIX_FIELDS, formNumber } from "./forms";
import { HttpError, type FieldErrors } from "./http";
import { readMultipartStream, type UploadedFile } from "./multipart.server";
import { picturesInputSchema, productInputSchema, type PicturesInput, type ProductInput } from "./schemas/product";
import type { ImageUpload } from "~/services/catalogue.server";
import { PICTURE_UPLOAD_LIMITS, uploadedPictures, type PictureChanges } from "~/services/product-images.server";

/** The add and update forms, read into the API's product shape (numbers and the checkbox converted here, once). */
export type ProductFormRead =
  | { ok: true; input: ProductInput; pictures: Required<Pick<PictureChanges, "added">> & PictureChanges }
  | { ok: false; message: string; fieldErrors: FieldErrors };

export async function readProductForm(request: Request): Promise<ProductFormRead> {
  let form: FormData;
  let files: UploadedFile[];
  try {
    // Read as it streams in: each picture is checked as it arrives and kept once (see multipart.server.ts).
    ({ fields: form, files } = await readMultipartStream(request, PICTURE_UPLOAD_LIMITS));
  } catch (error) {
    if (error instanceof HttpError) return { ok: false, message: error.message, fieldErrors: { imageFile: [error.message] } };
    throw error;
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const number = (name: string) => formNumber(form.get(name)) as number | undefined;
  const sizes = readSizeRows(form);
  const fieldErrors: FieldErrors = {};
  let input: ProductInput | undefined;
  let first: ImageUpload | null = null;
  let added: ImageUpload[] = [];
  let keep: PicturesInput | undefined;
  try {
    input = parseWith(productInputSchema, {
      name: text("name"),
      brand: text("brand"),
      description: text("description"),
      price: number("price"),
      category: text("category"),
      // The total of the sizes' stock (a form without the sizes table still sends stockQuantity). A size's bad stock is
      // that row's error alone: it is left out here, so the total is not refused as well.
      stockQuantity: sizes ? sizes.rows.reduce((total, size) => total + (Number.isSafeInteger(size.stockQuantity) && size.stockQuantity >= 0 ? size.stockQuantity : 0), 0) : number("stockQuantity"),
      sizes: sizes?.rows,
      releaseDate: text("releaseDate"),
      productAvailable: form.get("productAvailable") === "on",
      // The update form's hidden field: the product's version as the form was loaded (absent on the add form).
      version: number("version"),
    });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    // A size's error names its row in the parsed list: point it at the row of the form it came from.
    for (const [key, messages] of Object.entries(error.fieldErrors ?? {})) {
      const row = /^sizes\.(\d+)\.(.+)$/.exec(key);
      fieldErrors[row && sizes ? `sizes.${sizes.formRows[Number(row[1])]}.${row[2]}` : key] = messages;
    }
  }
  try {
    // `imageFile` is the form as it was before pictures were many (one file, the first picture).
    ({ first, added } = uploadedPictures(files));
    keep = currentPictures(form);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    Object.assign(fieldErrors, error.fieldErrors);
  }
  if (!input || Object.keys(fieldErrors).length) return { ok: false, message: FIX_FIELDS, fieldErrors };
  return { ok: true, input, pictures: { first, added, keep } };
}

/**
 * The update form's list of current pictures, as the API's `images`: each listed picture (`picture`, in the order
 * shown) has a position box, an alt text and a Remove checkbox; the `first` radio puts one at the front. Positions
 * that are blank or not numbers keep the order shown. Undefined when the form lists none (the add form).
 */
function currentPictures(form: FormData): PicturesInput | undefined {
  const shown = form.getAll("picture").filter((value): value is string => typeof value === "string");
  if (!shown.length) return undefined;
  const removed = new Set(form.getAll("remove"));
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const ordered = shown
    .map((id, index) => ({ id, index, position: Number.parseFloat(text(`position-${id}`)) }))
    .filter(({ id }) => !removed.has(id))
    .sort((a, b) => (Number.isFinite(a.position) ? a.position : a.index + 1) - (Number.isFinite(b.position) ? b.position : b.index + 1) || a.index - b.index);
  // "Make first" starts checked on the picture shown first: left there, it asks for nothing, and the position boxes
  // decide; moved to another picture, it wins.
  const first = text("first");
  const moved = first !== "" && first !== shown[0];
  const kept = moved ? [...ordered.filter(({ id }) => id === first), ...ordered.filter(({ id }) => id !== first)] : ordered;
  return parseWith(
    picturesInputSchema,
    kept.map(({ id }) => ({ id: Number(id), altText: text(`altText-${id}`) })),
  );
}

/**
 * The sizes table's rows (`sizes.{n}.id|label|stock|remove`, see SizesEditor), in the form's order: rows marked Remove
 * and empty rows are left out. `formRows` maps each kept row back to its row on the form, for its error. Undefined
 * when the form has no sizes table.
 */
function readSizeRows(form: FormData): { rows: NonNullable<ProductInput["sizes"]>; formRows: number[] } | undefined {
  const indices = new Set<number>();
  for (const key of form.keys()) {
    const match = /^sizes\.(\d{1,3})\.(id|label|stock|stockWas|remove)$/.exec(key);
    if (match) indices.add(Number(match[1]));
  }
  if (!indices.size) return undefined;
  const value = (index: number, field: string) => {
    const entry = form.get(`sizes.${index}.${field}`);
    return typeof entry === "string" ? entry.trim() : "";
  };
  const rows: NonNullable<ProductInput["sizes"]> = [];
  const formRows: number[] = [];
  for (const index of [...indices].sort((a, b) => a - b)) {
    const [id, label, stock, stockWas] = [value(index, "id"), value(index, "label"), value(index, "stock"), value(index, "stockWas")];
    if (form.get(`sizes.${index}.remove`) === "on" || (!id && !label && !stock)) continue;
    // Text that is no number stays text, so the schema answers it with its message instead of it becoming 0.
    rows.push({
      id: id ? Number(id) : undefined,
      label,
      stockQuantity: (formNumber(stock) ?? 0) as number,
      stockWas: id && /^\d+$/.test(stockWas) ? Number(stockWas) : undefined,
    });
    formRows.push(index);
  }
  return { rows, formRows };
}
