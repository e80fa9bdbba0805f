import { apiResource, endpoint, idParam, json, parseJsonField, readMultipart } from "~/lib/api.server";
import { PRODUCT_IMAGE_MAX_BYTES, PRODUCT_IMAGE_MESSAGES } from "~/lib/file-types";
import { apiProductSchema, productInputSchema } from "~/lib/schemas/product";
import { createProduct, deleteProduct, getProduct, getProductImage, readProductImage, updateProduct } from "~/services/catalogue.server";
import type { Db } from "~/services/db.server";
import { withSizes } from "~/services/sizes.server";

const withItsSizes = async <T extends { id: number }>(db: Db, product: T) => (await withSizes(db, [product]))[0];

const adminErrors = {
  400: { description: "Bad input" },
  401: { description: "No token, or an invalid or expired one" },
  403: { description: "Not an admin" },
  413: { description: "Image larger than 5 MB" },
  415: { description: "Image is not a JPEG, PNG, WebP or GIF (by its bytes)" },
} as const;
const multipart = { product: productInputSchema, imageFile: "binary" } as const;

async function readProductForm(request: Request) {
  const form = await readMultipart(request, PRODUCT_IMAGE_MAX_BYTES, { field: "imageFile", message: PRODUCT_IMAGE_MESSAGES.size });
  const input = await parseJsonField(form, "product", productInputSchema);
  return { input, image: await readProductImage(form.get("imageFile")) };
}

export const productApi = apiResource("/api/product", {
  "POST /": endpoint({
    summary: "Add a product (admin): multipart with `product` (JSON; optional `sizes` [{label, stockQuantity}], else one 'One size' holding stockQuantity) and `imageFile`",
    auth: "admin",
    multipart,
    responses: { 201: { description: "The new product", schema: apiProductSchema }, ...adminErrors },
    handler: async ({ request, context }) => {
      const { input, image } = await readProductForm(request);
      return json(await withItsSizes(context.db, await createProduct(context.db, context.cloudflare.env.BUCKET, input, image)), { status: 201 });
    },
  }),
  "GET /{id}": endpoint({
    summary: "One product",
    auth: "none",
    responses: { 200: { description: "The product", schema: apiProductSchema }, 404: { description: "No such product" } },
    handler: async ({ context, params }) => json(await withItsSizes(context.db, await getProduct(context.db, idParam(params.id, "Product")))),
  }),
  "PUT /{id}": endpoint({
    summary: "Update a product (admin); without `imageFile` the image is kept. With `sizes`, the sizes become those listed (by id; without an id, new); without, stockQuantity sets a one-size product's stock",
    auth: "admin",
    multipart,
    responses: { 200: { description: "The updated product", schema: apiProductSchema }, ...adminErrors, 404: { description: "No such product" } },
    handler: async ({ request, context, params }) => {
      const id = idParam(params.id, "Product");
      const { input, image } = await readProductForm(request);
      return json(await withItsSizes(context.db, await updateProduct(context.db, context.cloudflare.env.BUCKET, id, input, image)));
    },
  }),
  "DELETE /{id}": endpoint({
    summary: "Delete a product and its image (admin); past orders keep their lines",
    auth: "admin",
    responses: { 204: { description: "Deleted" }, 401: adminErrors[401], 403: adminErrors[403], 404: { description: "No such product" } },
    handler: async ({ context, params }) => {
      await deleteProduct(context.db, context.cloudflare.env.BUCKET, idParam(params.id, "Product"));
      return new Response(null, { status: 204 });
    },
  }),
  "GET /{id}/image": endpoint({
    summary: "The product's picture, with its real Content-Type, a strong ETag and Cache-Control; 304 on a matching If-None-Match",
    auth: "none",
    responses: {
      200: { description: "The image bytes", contentType: "image/*" },
      304: { description: "Not modified" },
      404: { description: "No such product or image" },
    },
    handler: async ({ request, context, params }) => {
      const image = await getProductImage(
        context.db,
        context.cloudflare.env.BUCKET,
        idParam(params.id, "Product"),
        request.headers.get("If-None-Match"),
        new URL(request.url).searchParams.get("v"),
      );
      const headers = {
        ETag: image.etag,
        // A URL with ?v=<current key> never changes meaning: cache it for a year. A bare URL is revalidated.
        "Cache-Control": image.versioned ? "public, max-age=31536000, immutable" : "public, max-age=300, must-revalidate",
        "Content-Type": image.type,
      };
      return new Response(image.body, { status: image.body ? 200 : 304, headers });
    },
  }),
});
