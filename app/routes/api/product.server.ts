import { apiResource, endpoint, idParam, json, parseJsonField } from "~/lib/api.server";
import { readMultipartStream } from "~/lib/multipart.server";
import { apiProductSchema, picturesInputSchema, productInputSchema } from "~/lib/schemas/product";
import { createProduct, deleteProduct, getProductImage, getProductWithSizes, updateProduct } from "~/services/catalogue.server";
import type { Db } from "~/services/db.server";
import { PICTURE_UPLOAD_LIMITS, getProductImageAt, uploadedPictures, type ServedImage } from "~/services/product-images.server";
import { withSizes } from "~/services/sizes.server";

const withItsSizes = async <T extends { id: number }>(db: Db, product: T) => (await withSizes(db, [product]))[0];

const adminErrors = {
  400: { description: "Bad input" },
  401: { description: "No token, or an invalid or expired one" },
  403: { description: "Not an admin" },
  409: {
    description:
      "The product was changed by someone else meanwhile (PUT): the `product.version` sent is no longer the product's (another save came after the copy it was sent from), or another save committed during this one; nothing was changed",
  },
  413: { description: "Image larger than 5 MB" },
  415: { description: "Image is not a JPEG, PNG, WebP or GIF (by its bytes)" },
} as const;
// `imageFiles` (repeated) and `images` came with several pictures a product; `imageFile` keeps its meaning.
const multipart = { product: productInputSchema, imageFile: "binary", imageFiles: "binary", images: picturesInputSchema } as const;

/** The product part and the pictures of an admin's multipart body, read as it streams in (8 pictures of 5 MB). */
async function readProductForm(request: Request) {
  const { fields, files } = await readMultipartStream(request, PICTURE_UPLOAD_LIMITS);
  const input = await parseJsonField(fields, "product", productInputSchema);
  const { first, added } = uploadedPictures(files);
  const keep = fields.has("images") ? await parseJsonField(fields, "images", picturesInputSchema) : undefined;
  return { input, first, added, keep };
}

/** A picture's answer, for /image and /images/{n} alike: 200 with its bytes, or 304 when the client's copy is current. */
function imageResponse(image: ServedImage): Response {
  const headers = {
    ETag: image.etag,
    // A URL with ?v=<current key> never changes meaning: cache it for a year. A bare URL is revalidated.
    "Cache-Control": image.versioned ? "public, max-age=31536000, immutable" : "public, max-age=300, must-revalidate",
    "Content-Type": image.type,
  };
  return new Response(image.body, { status: image.body ? 200 : 304, headers });
}

export const productApi = apiResource("/api/product", {
  "POST /": endpoint({
    summary:
      "Add a product (admin): multipart with `product` (JSON; optional `sizes` [{label, stockQuantity}], else one 'One size' holding stockQuantity) and its pictures: `imageFile` (the first) and/or `imageFiles` (repeated, in order); 1 to 8 pictures, each a JPEG, PNG, WebP or GIF of at most 5 MB",
    auth: "admin",
    multipart,
    responses: { 201: { description: "The new product", schema: apiProductSchema }, ...adminErrors },
    handler: async ({ request, context }) => {
      const { input, first, added } = await readProductForm(request);
      return json(await withItsSizes(context.db, await createProduct(context.db, context.cloudflare.env.BUCKET, input, [...(first ? [first] : []), ...added])), { status: 201 });
    },
  }),
  "GET /{id}": endpoint({
    summary: "One product, with `images`: all its pictures, first to last",
    auth: "none",
    responses: { 200: { description: "The product", schema: apiProductSchema }, 404: { description: "No such product" } },
    handler: async ({ context, params }) => json(await getProductWithSizes(context.db, idParam(params.id, "Product"))),
  }),
  "PUT /{id}": endpoint({
    summary:
      "Update a product (admin). `product.version` (optional): the `version` of the product as the client loaded it; if another save came since, 409 and nothing changes (without it, no save is refused for its age). Sizes: with `sizes`, the sizes become those listed (by id; without an id, new); without, stockQuantity sets a one-size product's stock. Pictures: `images` (JSON, optional) lists the current pictures to keep by id, first to last, with their `altText`; those left out are removed; absent keeps them all. `imageFile` (optional) then takes the place of the first picture; `imageFiles` (repeated) are added after the others. At most 8 in all, at least 1",
    auth: "admin",
    multipart,
    responses: { 200: { description: "The updated product", schema: apiProductSchema }, ...adminErrors, 404: { description: "No such product" } },
    handler: async ({ request, context, params }) => {
      const id = idParam(params.id, "Product");
      const { input, first, added, keep } = await readProductForm(request);
      return json(await withItsSizes(context.db, (await updateProduct(context.db, context.cloudflare.env.BUCKET, id, input, { first, added, keep })).product));
    },
  }),
  "DELETE /{id}": endpoint({
    summary: "Delete a product and all its pictures (admin); past orders keep their lines",
    auth: "admin",
    responses: { 204: { description: "Deleted" }, 401: adminErrors[401], 403: adminErrors[403], 404: { description: "No such product" } },
    handler: async ({ context, params }) => {
      await deleteProduct(context.db, context.cloudflare.env.BUCKET, idParam(params.id, "Product"));
      return new Response(null, { status: 204 });
    },
  }),
  "GET /{id}/image": endpoint({
    summary: "The product's first picture, with its real Content-Type, a strong ETag and Cache-Control; 304 on a matching If-None-Match",
    auth: "none",
    responses: {
      200: { description: "The image bytes", contentType: "image/*" },
      304: { description: "Not modified" },
      404: { description: "No such product or image" },
    },
    handler: async ({ request, context, params, url }) => {
      const image = await getProductImage(
        context.db,
        context.cloudflare.env.BUCKET,
        idParam(params.id, "Product"),
        request.headers.get("If-None-Match"),
        url.searchParams.get("v"),
      );
      return imageResponse(image);
    },
  }),
  "GET /{id}/images/{n}": endpoint({
    summary: "Picture n of the product (1 is the first, as `images` lists them), served as /image serves the first: real Content-Type, strong ETag, Cache-Control (immutable with the `?v=` of its `url`); 304 on a matching If-None-Match",
    auth: "none",
    responses: {
      200: { description: "The image bytes", contentType: "image/*" },
      304: { description: "Not modified" },
      404: { description: "No such product, or no picture n" },
    },
    handler: async ({ request, context, params, url }) => {
      const image = await getProductImageAt(
        context.db,
        context.cloudflare.env.BUCKET,
        idParam(params.id, "Product"),
        idParam(params.n, "Image"),
        request.headers.get("If-None-Match"),
        url.searchParams.get("v"),
      );
      return imageResponse(image);
    },
  }),
});
