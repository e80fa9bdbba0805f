import { parseWith, readMultipart } from "./api.server";
import { PRODUCT_IMAGE_MAX_BYTES, PRODUCT_IMAGE_MESSAGES } from "./file-types";
import { FIX_FIELDS } from "./forms";
import { HttpError, type FieldErrors } from "./http";
import { productInputSchema, type ProductInput } from "./schemas/product";
import { readProductImage, type ImageUpload } from "~/services/catalogue.server";

/** The add and update forms, read into the API's product shape (numbers and the checkbox converted here, once). */
export type ProductFormRead =
  | { ok: true; input: ProductInput; image: ImageUpload | null }
  | { ok: false; message: string; fieldErrors: FieldErrors };

export async function readProductForm(request: Request): Promise<ProductFormRead> {
  let form: FormData;
  try {
    form = await readMultipart(request, PRODUCT_IMAGE_MAX_BYTES, { field: "imageFile", message: PRODUCT_IMAGE_MESSAGES.size });
  } catch (error) {
    if (error instanceof HttpError) return { ok: false, message: error.message, fieldErrors: { imageFile: [error.message] } };
    throw error;
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const number = (name: string) => (text(name).trim() === "" ? undefined : Number(text(name)));
  const fieldErrors: FieldErrors = {};
  let input: ProductInput | undefined;
  let image: ImageUpload | null = null;
  try {
    input = parseWith(productInputSchema, {
      name: text("name"),
      brand: text("brand"),
      description: text("description"),
      price: number("price"),
      category: text("category"),
      stockQuantity: number("stockQuantity"),
      releaseDate: text("releaseDate"),
      productAvailable: form.get("productAvailable") === "on",
    });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    Object.assign(fieldErrors, error.fieldErrors);
  }
  try {
    image = await readProductImage(form.get("imageFile"));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    Object.assign(fieldErrors, error.fieldErrors);
  }
  if (!input || Object.keys(fieldErrors).length) return { ok: false, message: FIX_FIELDS, fieldErrors };
  return { ok: true, input, image };
}
