import { and, asc, eq, inArray } from "drizzle-orm";

import { PRODUCT_IMAGE_MAX_BYTES, PRODUCT_IMAGE_MESSAGES, PRODUCT_IMAGE_TYPES } from "~/lib/file-types";
import { HttpError, badRequest, conflict, notFound } from "~/lib/http";
import { imageSize } from "~/lib/image-size";
import type { UploadLimits, UploadedFile } from "~/lib/multipart.server";
import { PICTURE_MESSAGES, PRODUCT_IMAGES_MAX, pictureAlt } from "~/lib/product-images";
import type { PicturesInput, ProductImageView } from "~/lib/schemas/product";
import type { ImageUpload } from "./catalogue.server";
import { type Db, type ReadPlan, abortedByTrigger, constraintFailure, schema } from "./db.server";

// A product's pictures (up to 8, first to last): stored in R2 under products/{id}/{uuid}, listed in product_images.
// The first one is mirrored into products.image_* by the triggers of migrations/0007.

const { productImages } = schema;
type PictureRow = typeof productImages.$inferSelect;

const IMMUTABLE = "public, max-age=31536000, immutable";
const uuidOf = (key: string) => key.split("/").pop() as string;

/** What an admin asks of a product's pictures. */
export interface PictureChanges {
  /** Takes the place of the first picture (the API's single `imageFile`, as before pictures were many). */
  first?: ImageUpload | null;
  /** New pictures, after the kept ones (or where `addedAt` puts them). */
  added?: ImageUpload[];
  /**
   * Where each new picture goes among all the pictures saved (0 is the card's), one place each, the kept pictures
   * filling the other places in their order: the product form's order, where a new picture may come first. Absent: after
   * the kept ones.
   */
  addedAt?: number[];
  /** The current pictures to keep, first to last, with their alt text; absent keeps them all as they are. */
  keep?: PicturesInput;
}

export function picturesQuery(db: Db, productId: number) {
  return db.select().from(productImages).where(eq(productImages.productId, productId)).orderBy(asc(productImages.position));
}

/** A product's pictures in their order, as a plan (readTogether). */
export function picturesPlan(db: Db, productId: number): ReadPlan<PictureRow[]> {
  return { statements: [picturesQuery(db, productId)], assemble: ([rows]) => rows as PictureRow[] };
}

/** The pictures as the API and the screens show them: `n` in the URL is the place, the `v` the key, cached for good. */
export function toImageViews(product: { id: number; brand: string; name: string }, rows: PictureRow[]): ProductImageView[] {
  return rows.map((row, index) => ({
    id: row.id,
    url: `/api/product/${product.id}/images/${index + 1}?v=${uuidOf(row.key)}`,
    width: row.width,
    height: row.height,
    alt: pictureAlt(product, index + 1, rows.length, row.altText),
    altText: row.altText,
    name: row.name,
    type: row.contentType,
  }));
}

export async function listProductImages(db: Db, product: { id: number; brand: string; name: string }): Promise<ProductImageView[]> {
  return toImageViews(product, await picturesQuery(db, product.id));
}

/**
 * How an admin's product form is read (readMultipartStream): `imageFile` (the first picture, as before pictures were
 * many) and the repeated `imageFiles`, each a JPEG, PNG, WebP or GIF of at most 5 MB, 8 pictures of 5 MB in all.
 */
export const PICTURE_UPLOAD_LIMITS: UploadLimits = {
  fileFields: ["imageFile", "imageFiles"],
  types: PRODUCT_IMAGE_TYPES,
  maxFileBytes: PRODUCT_IMAGE_MAX_BYTES,
  // imageFile beside 8 imageFiles are all kept, so that the ninth picture gets plan()'s 400 like any other ninth.
  maxFiles: PRODUCT_IMAGES_MAX + 1,
  maxBytes: PRODUCT_IMAGES_MAX * PRODUCT_IMAGE_MAX_BYTES,
  tooLarge: { field: "imageFile", message: PRODUCT_IMAGE_MESSAGES.size },
};

function toUpload(file: UploadedFile, field: string, named: boolean): ImageUpload {
  // A header that cannot be read is no picture a browser could show (a cut-off file, or bytes that only begin like one):
  // every PNG, GIF, WebP and JPEG says its size before its pixels. 415, as for any other file that is no picture.
  const size = file.bytes && file.type && !file.problem ? measured(file.bytes, file.type) : null;
  if (file.bytes && file.type && size?.width) return { bytes: file.bytes, type: file.type, name: file.name, ...size };
  const [status, text] =
    file.problem === "size" ? [413, PRODUCT_IMAGE_MESSAGES.size] : file.problem === "count" ? [400, PICTURE_MESSAGES.tooMany] : [415, PRODUCT_IMAGE_MESSAGES.type];
  const message = named ? `${text} (${file.name})` : text;
  throw new HttpError(status, message, { [field]: [message] });
}

/**
 * The pictures of a product form read by PICTURE_UPLOAD_LIMITS: the first `imageFile` and the `imageFiles` in order.
 * The first fault is thrown: 400 for more than 8 imageFiles (before any file's own fault), then 413 for a file over
 * 5 MB or 415 for one that is no picture, keyed by its field; among imageFiles the message names the file.
 */
export function uploadedPictures(files: UploadedFile[]): { first: ImageUpload | null; added: ImageUpload[] } {
  const added = files.filter((file) => file.field === "imageFiles");
  if (added.length > PRODUCT_IMAGES_MAX || files.some((file) => file.problem === "count")) {
    throw badRequest(PICTURE_MESSAGES.tooMany, { imageFiles: [PICTURE_MESSAGES.tooMany] });
  }
  const first = files.find((file) => file.field === "imageFile");
  return { first: first ? toUpload(first, "imageFile", false) : null, added: added.map((file) => toUpload(file, "imageFiles", true)) };
}

/** The size a picture's header gives, or nulls (a picture stored before sizes were read is measured when first served). */
export function measured(bytes: Uint8Array, type: string) {
  const size = imageSize(bytes, type as Parameters<typeof imageSize>[1]);
  return { width: size?.width ?? null, height: size?.height ?? null };
}

type Planned = { row: PictureRow; altText: string | null } | { upload: ImageUpload };

/** The pictures after the changes, first to last, and the ones no longer there; 400 when that breaks a rule. */
function plan(current: PictureRow[], changes: PictureChanges): { planned: Planned[]; removed: PictureRow[] } {
  let kept: Planned[] = current.map((row) => ({ row, altText: row.altText }));
  if (changes.keep) {
    const seen = new Set<number>();
    kept = changes.keep.map(({ id, altText }) => {
      const row = current.find((picture) => picture.id === id);
      if (!row) throw badRequest(PICTURE_MESSAGES.unknown, { images: [`${PICTURE_MESSAGES.unknown}: ${id}`] });
      if (seen.has(id)) throw badRequest(PICTURE_MESSAGES.repeated, { images: [`${PICTURE_MESSAGES.repeated}: ${id}`] });
      seen.add(id);
      return { row, altText: altText === undefined ? row.altText : altText || null };
    });
  }
  const planned = placed(changes.first ? [{ upload: changes.first }, ...kept.slice(1)] : kept, changes.added ?? [], changes.addedAt);
  if (planned.length > PRODUCT_IMAGES_MAX) throw badRequest(PICTURE_MESSAGES.tooMany, { imageFiles: [PICTURE_MESSAGES.tooMany] });
  if (planned.length === 0) throw badRequest(PICTURE_MESSAGES.none, { imageFiles: [PICTURE_MESSAGES.none] });
  const staying = new Set(planned.flatMap((item) => ("row" in item ? [item.row.id] : [])));
  return { planned, removed: current.filter((row) => !staying.has(row.id)) };
}

/** The kept pictures with the new ones after them, or each new one at its place (`addedAt`); 400 for places that do not fit. */
function placed(kept: Planned[], added: ImageUpload[], addedAt: number[] | undefined): Planned[] {
  if (!addedAt) return [...kept, ...added.map((upload) => ({ upload }))];
  const total = kept.length + added.length;
  const fits = addedAt.length === added.length && new Set(addedAt).size === addedAt.length && addedAt.every((at) => Number.isInteger(at) && at >= 0 && at < total);
  if (!fits) throw badRequest(PICTURE_MESSAGES.place, { imageFiles: [PICTURE_MESSAGES.place] });
  const rest = [...kept];
  return Array.from({ length: total }, (_, at) => {
    const index = addedAt.indexOf(at);
    return index >= 0 ? { upload: added[index] } : (rest.shift() as Planned);
  });
}

async function storeUpload(bucket: R2Bucket, productId: number, upload: ImageUpload): Promise<string> {
  const key = `products/${productId}/${crypto.randomUUID()}`;
  await bucket.put(key, upload.bytes, { httpMetadata: { contentType: upload.type, cacheControl: IMMUTABLE } });
  return key;
}

/** The abort of migrations/0011's trigger: another save of the product committed first. */
const productChanged = (error: unknown) => abortedByTrigger(error, "pictures_version");

/**
 * The one rule of a product's edit version (products.version): a save is based on the version its client loaded (the
 * form's hidden `version`, the API's `product.version`) or, when the client sends none, on the version just read;
 * a base that is not the current version means another save came first: 409, nothing changed. This is the early,
 * clear answer; savePictures' batch checks the same base again atomically (migrations/0011's trigger), so a save that
 * commits between this read and that batch is caught too. Returns the base.
 */
export function versionBase(sent: number | undefined, current: number): number {
  if (sent !== undefined && sent !== current) throw conflict(PICTURE_MESSAGES.changed);
  return current;
}

/**
 * Writes a product's pictures as planned, with the other statements given (the product's own fields and sizes), in
 * one batch: the rows read are deleted and the list written again in its new order (a position is unique per product,
 * so rows cannot simply swap places one by one). New uploads go to R2 first and are removed again if the batch fails;
 * pictures dropped leave R2 once it has succeeded. `version` is the version the save is based on (see versionBase):
 * a save that committed after it (another admin, another tab, while a form was open or during this save) fails the
 * batch's version check: 409, nothing changed, and no object a committed row names is ever deleted. Returns the
 * results of the `before` statements, in their order (a read among them sees the batch as it stood there).
 */
export async function savePictures(
  db: Db,
  bucket: R2Bucket,
  productId: number,
  changes: PictureChanges,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Drizzle statement of this database
  before: any[] = [],
  version?: number,
): Promise<unknown[]> {
  // The version and the rows in one read (a batch is one transaction), so the version vouches for these rows.
  const [[product], current] = await db.batch([
    db.select({ version: schema.products.version }).from(schema.products).where(eq(schema.products.id, productId)).limit(1),
    picturesQuery(db, productId),
  ]);
  if (!product) throw notFound("Product not found");
  // Before plan(): a picture the older copy names may be gone, and the answer is then "changed", not "unknown picture".
  const base = versionBase(version, product.version);
  const { planned, removed } = plan(current, changes);
  const newKeys: string[] = [];
  let results: readonly unknown[];
  try {
    const values = [];
    for (const [position, item] of planned.entries()) {
      if ("row" in item) {
        values.push({ ...item.row, position, altText: item.altText });
      } else {
        const key = await storeUpload(bucket, productId, item.upload);
        newKeys.push(key);
        const { type, name, width, height, altText } = item.upload;
        values.push({ productId, position, key, contentType: type, name, width, height, altText: altText || null });
      }
    }
    const readIds = current.map((row) => row.id);
    results = await db.batch([
      // First: fails the batch (see migrations/0011) if another save committed since the version the save is based on.
      db.update(schema.products).set({ version: base + 1 }).where(eq(schema.products.id, productId)),
      ...before,
      ...(readIds.length ? [db.delete(productImages).where(and(eq(productImages.productId, productId), inArray(productImages.id, readIds)))] : []),
      // One statement a row keeps each under D1's 100 bound parameters.
      ...values.map((value) => db.insert(productImages).values(value)),
    ] as unknown as Parameters<Db["batch"]>[0]);
  } catch (error) {
    if (newKeys.length) await bucket.delete(newKeys);
    const failure = constraintFailure(error);
    if (failure === "foreign-key") throw notFound("Product not found"); // deleted meanwhile
    if (failure === "unique" || failure === "check" || productChanged(error)) throw conflict(PICTURE_MESSAGES.changed);
    throw error;
  }
  // Only now, and only these: no committed row can name them, since any save based on the rows read before this one
  // has failed its version check, and later saves read the rows this one wrote.
  if (removed.length) await bucket.delete(removed.map((row) => row.key));
  return results.slice(1, 1 + before.length);
}

export interface ServedImage {
  etag: string;
  type: string;
  /** null when the caller's copy is current (304). */
  body: ReadableStream | Uint8Array<ArrayBuffer> | null;
  /** Whether the URL named this picture's current key, so it may be cached for good. */
  versioned: boolean;
}

/** The strong ETag of a picture, its key's uuid, and whether an If-None-Match holds it (compared weakly, RFC 9110). */
export function etagFor(key: string, ifNoneMatch: string | null): { etag: string; matches: boolean } {
  const etag = `"${uuidOf(key)}"`;
  const matches = !!ifNoneMatch?.split(",").some((tag) => ["*", etag].includes(tag.trim().replace(/^W\//, "")));
  return { etag, matches };
}

/**
 * Picture n (1 for the first) of a product, as GET /product/{id}/image serves the first: a 304 known from D1 alone.
 * A picture moved by the migration has no size yet; the first time its bytes are read, the size is read from them.
 */
export async function getProductImageAt(db: Db, bucket: R2Bucket, productId: number, n: number, ifNoneMatch: string | null, version: string | null): Promise<ServedImage> {
  const [row] = n > PRODUCT_IMAGES_MAX ? [] : await picturesQuery(db, productId).limit(1).offset(n - 1);
  if (!row) {
    const [product] = await db.select({ id: schema.products.id }).from(schema.products).where(eq(schema.products.id, productId)).limit(1);
    throw notFound(product ? "Image not found" : "Product not found");
  }
  const { etag, matches } = etagFor(row.key, ifNoneMatch);
  const versioned = version === uuidOf(row.key);
  if (matches) return { etag, type: row.contentType, body: null, versioned };
  const object = await bucket.get(row.key);
  if (!object) throw notFound("Image not found");
  if (row.width !== null) return { etag, type: row.contentType, body: object.body, versioned };
  const bytes = new Uint8Array(await object.arrayBuffer());
  const size = measured(bytes, row.contentType);
  if (size.width !== null) await db.update(productImages).set(size).where(eq(productImages.id, row.id));
  return { etag, type: row.contentType, body: bytes, versioned };
}
