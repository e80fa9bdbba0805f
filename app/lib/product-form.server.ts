import { parseWith } from "./api.server";
import { HttpError, type FieldErrors } from "./http";
import { productInputSchema, type ProductInput } from "./schemas/product";
import { readProductImage, type ImageUpload } from "~/services/catalogue.server";

/** The add and update forms, read into the API's product shape (numbers and the checkbox converted here, once). */
export type ProductFormRead =
  | { ok: true; input: ProductInput; image: ImageUpload | null }
  | { ok: false; message: string; fieldErrors: FieldErrors };

export async function readProductForm(request: Request): Promise<ProductFormRead> {
  const form = await request.formData();
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
  if (!input || Object.keys(fieldErrors).length) return { ok: false, message: "Please correct the highlighted fields.", fieldErrors };
  return { ok: true, input, image };
}
