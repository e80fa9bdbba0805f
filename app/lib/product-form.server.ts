import { redirect } from "react-router";

import type { SessionUser } from "~/services/auth.server";
import { adminFormRefusal, assertRenderedFor } from "~/services/session.server";
import { parseWith } from "./api.server";
import { FIX_FIELDS, formNumber } from "./forms";
import { HttpError, RenderedForRefusal, type FieldErrors } from "./http";
import { readMultipartStream, type UploadedFile } from "./multipart.server";
import { RENDERED_FOR_FIELD } from "./rendered-for";
import { altTextSchema, picturesInputSchema, productInputSchema, type PicturesInput, type ProductInput } from "./schemas/product";
import type { ImageUpload } from "~/services/catalogue.server";
import { PICTURE_UPLOAD_LIMITS, uploadedPictures, type PictureChanges } from "~/services/product-images.server";

/** The add and update forms, read into the API's product shape (numbers and the checkbox converted here, once). */
export type ProductFormRead =
  | { ok: true; input: ProductInput; pictures: Required<Pick<PictureChanges, "added">> & PictureChanges }
  | { ok: false; status: number; message: string; fieldErrors: FieldErrors };

/**
 * `poster`, the session's user (the action's requireUser has sent a visitor to the login page before the body is
 * read): the form is refused (409, its message as it stands) when it was rendered for someone else
 * (assertRenderedFor), before the role is judged, so an admin whose other tab logged in as a customer is told what
 * happened; a customer is then sent to /. A customer's pictures are read into nothing: only an admin's are kept.
 */
export async function readProductForm(request: Request, poster?: SessionUser): Promise<ProductFormRead> {
  const admin = !poster || poster.role === "ROLE_ADMIN";
  let form: FormData;
  let files: UploadedFile[];
  try {
    // Read as it streams in: each picture is checked as it arrives and kept once (see multipart.server.ts).
    ({ fields: form, files } = await readMultipartStream(request, admin ? PICTURE_UPLOAD_LIMITS : { ...PICTURE_UPLOAD_LIMITS, types: [] }));
  } catch (error) {
    if (error instanceof HttpError) return { ok: false, status: 400, message: error.message, fieldErrors: { imageFile: [error.message] } };
    throw error;
  }
  if (poster) {
    try {
      assertRenderedFor(form.get(RENDERED_FOR_FIELD), poster);
    } catch (error) {
      if (!(error instanceof RenderedForRefusal)) throw error;
      // Without JavaScript, a customer's page would go to / with it (adminFormRefusal says why).
      if (!admin && adminFormRefusal(request, error, poster) !== error) throw adminFormRefusal(request, error, poster);
      return { ok: false, status: error.status, message: error.message, fieldErrors: {} };
    }
    if (!admin) throw redirect("/");
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
  let addedAt: number[] | undefined;
  try {
    // `imageFile` is the form as it was before pictures were many (one file, the first picture).
    ({ first, added } = uploadedPictures(files));
    const altTexts = newPictureAltTexts(form, added.length, fieldErrors);
    added = added.map((upload, n) => ({ ...upload, altText: altTexts[n] }));
    ({ keep, addedAt } = pictureOrder(form, added.length, fieldErrors));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    Object.assign(fieldErrors, error.fieldErrors);
  }
  if (!input || Object.keys(fieldErrors).length) return { ok: false, status: 400, message: FIX_FIELDS, fieldErrors };
  return { ok: true, input, pictures: { first, added, keep, addedAt } };
}

/** A picture's alt text as typed in the field `name`, or its message in `fieldErrors` under that name (the field's). */
function altTextOf(form: FormData, name: string, fieldErrors: FieldErrors): string | null {
  const value = form.get(name);
  const read = altTextSchema.safeParse(typeof value === "string" ? value : "");
  if (read.success) return read.data || null;
  fieldErrors[name] = read.error.issues.slice(0, 1).map((issue) => issue.message);
  return null;
}

/** The alt texts of the new pictures (`altText-new-{n}` for the n-th of `imageFiles`), typed before they are saved. */
function newPictureAltTexts(form: FormData, count: number, fieldErrors: FieldErrors): (string | null)[] {
  return Array.from({ length: count }, (_, n) => altTextOf(form, `altText-new-${n}`, fieldErrors));
}

/**
 * The update form's order of pictures, as the API's `images` (the current pictures to keep, first to last) and each new
 * picture's place (`addedAt`). Each current picture listed (`picture`, in the order shown) has an alt text and a Remove
 * checkbox. With JavaScript the form sends the order shown, one `order` a picture kept: `current-{id}` or `new-{n}` (the
 * n-th file of `imageFiles`), so a new picture can go anywhere, first included. Without it, each current picture has a
 * position box and the `first` radio puts one at the front (positions that are blank or not numbers keep the order
 * shown), and the new pictures follow them. Nothing in `keep` when the form lists no current picture (the add form).
 */
function pictureOrder(form: FormData, addedCount: number, fieldErrors: FieldErrors): { keep?: PicturesInput; addedAt?: number[] } {
  const shown = form.getAll("picture").filter((value): value is string => typeof value === "string");
  if (!shown.length) return {};
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
  const keep = (ids: string[]) =>
    parseWith(
      picturesInputSchema,
      ids.map((id) => ({ id: Number(id), altText: altTextOf(form, `altText-${id}`, fieldErrors) })),
    );
  const sent = form.getAll("order").filter((value): value is string => typeof value === "string");
  if (!sent.length) return { keep: keep(kept.map(({ id }) => id)) };
  // The order shown, each picture once; one it leaves out (a form that lost a field) keeps its place after the others.
  const places: ({ id: string } | { n: number })[] = [];
  const [keptIds, newOnes] = [new Set<string>(), new Set<number>()];
  for (const entry of sent) {
    const current = /^current-(\d{1,12})$/.exec(entry)?.[1];
    const n = Number(/^new-(\d{1,2})$/.exec(entry)?.[1] ?? Number.NaN);
    if (current !== undefined && kept.some(({ id }) => id === current) && !keptIds.has(current)) {
      places.push({ id: current });
      keptIds.add(current);
    } else if (n < addedCount && !newOnes.has(n)) {
      places.push({ n });
      newOnes.add(n);
    }
  }
  for (const { id } of kept) if (!keptIds.has(id)) places.push({ id });
  for (let n = 0; n < addedCount; n++) if (!newOnes.has(n)) places.push({ n });
  return {
    keep: keep(places.flatMap((place) => ("id" in place ? [place.id] : []))),
    addedAt: Array.from({ length: addedCount }, (_, n) => places.findIndex((place) => "n" in place && place.n === n)),
  };
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
