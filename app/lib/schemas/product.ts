import { blankIsAbsent, plainText, typeError, z } from "../zod";

import { CATEGORIES, SORTS } from "../constants";
import { rupeesToCents } from "../format";
import { SIZE_LABEL_MAX, SIZES_MAX } from "../sizes";
import { ALT_TEXT_MAX, PRODUCT_IMAGES_MAX } from "../product-images";

const SIZE_LABELS_UNIQUE = "Each size needs its own label";
const SIZE_LABEL_REPEATED = "A size above has this label";

export const PAGE_SIZE = 24;
export const MAX_PAGE_SIZE = 100;
export const KEYWORD_MAX = 100;
export const PRICE_MAX = 10_000_000;
export const BRAND_MAX = 80;
// The grid's orders live with the constants, so the home page's client code gets them without zod.
export { SORTS, type Sort } from "../constants";

const isRealDate = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
};

/** What an admin sends for a product (API: the `product` JSON string; screens: the form, converted). */
export const productInputSchema = z.object({
  name: z
    .string({ error: typeError("Name is required", "Name must be text") })
    .trim()
    .min(1, "Name is required")
    .max(120, "Name must be at most 120 characters")
    .check(plainText("Name")),
  brand: z
    .string({ error: typeError("Brand is required", "Brand must be text") })
    .trim()
    .min(1, "Brand is required")
    .max(BRAND_MAX, `Brand must be at most ${BRAND_MAX} characters`)
    .check(plainText("Brand")),
  description: z
    .string({ error: typeError("Description is required", "Description must be text") })
    .trim()
    .min(1, "Description is required")
    .max(2000, "Description must be at most 2000 characters")
    .check(plainText("Description", { lines: true }))
    .transform((text) => text.replace(/\r\n?/g, "\n")), // browsers send a textarea's line breaks as \r\n
  price: z
    .number({ error: (issue) => (issue.input === undefined ? "Price is required" : "Price must be a number") })
    .min(0, "Price cannot be negative")
    // A shoe given away by a slip of the finger: a product is never free. Judged in cents, as it is kept: 1e-9 is 0 cents.
    .refine((value) => rupeesToCents(value) !== 0, "Price must be more than 0")
    .max(PRICE_MAX, "Price is too high")
    .refine((value) => rupeesToCents(value) !== null, "Price can have at most 2 decimals"),
  category: z.enum(CATEGORIES, { error: "Choose a category: Gents, Ladies, Kids or Accessories" }),
  stockQuantity: z
    .number({ error: typeError("Stock quantity must be a number") })
    .int("Stock quantity must be a whole number")
    .min(0, "Stock quantity cannot be negative")
    .max(1_000_000, "Stock quantity is too high"),
  releaseDate: z
    .string({ error: typeError("Release date is required", "Release date must be a YYYY-MM-DD string") })
    .min(1, "Release date is required")
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Release date must be YYYY-MM-DD")
    .refine(isRealDate, "Release date is not a real date"),
  productAvailable: z.boolean({ error: "productAvailable must be true or false" }).default(true),
  // Optional (additive to API.md): without it a new product has one "One size" holding stockQuantity.
  sizes: z
    .array(
      z.object({
        id: z.number({ error: typeError("A size's id must be a number") }).int("A size's id must be a whole number").min(1, "A size's id must be at least 1").optional(),
        label: z
          .string({ error: typeError("A size needs a label", "A size's label must be text") })
          .trim()
          .min(1, "A size needs a label")
          .max(SIZE_LABEL_MAX, `A size's label must be at most ${SIZE_LABEL_MAX} characters`)
          .check(plainText("A size's label")),
        stockQuantity: z
          .number({ error: typeError("A size's stock must be a number") })
          .int("A size's stock must be a whole number")
          .min(0, "A size's stock cannot be below zero")
          .max(1_000_000, "A size's stock is too high"),
        // Optional: the stock the client last saw. With it, the stock moves by stockQuantity - stockWas, so pairs
        // sold while an admin had the form open are not put back (the form always sends it).
        stockWas: z
          .number({ error: typeError("A size's stockWas must be a number") })
          .int("A size's stockWas must be a whole number")
          .min(0, "A size's stockWas cannot be below zero")
          .max(1_000_000, "A size's stockWas is too high")
          .optional(),
      }),
    )
    .min(1, "A product needs at least one size")
    .max(SIZES_MAX, `A product has at most ${SIZES_MAX} sizes`)
    .superRefine((sizes, context) => {
      // Named on the list and on each row that repeats an earlier label, so the form marks the rows to fix.
      const seen = new Set<string>();
      let repeated = false;
      sizes.forEach((size, index) => {
        const label = size.label.toLowerCase();
        if (seen.has(label)) {
          repeated = true;
          context.addIssue({ code: "custom", message: SIZE_LABEL_REPEATED, path: [index, "label"] });
        }
        seen.add(label);
      });
      if (repeated) context.addIssue({ code: "custom", message: SIZE_LABELS_UNIQUE });
    })
    .refine((sizes) => new Set(sizes.flatMap((size) => (size.id ? [size.id] : []))).size === sizes.filter((size) => size.id).length, "A size is listed twice")
    .optional(),
  // Optional (additive to API.md): the product's `version` as the client loaded it (the form always sends it). A save
  // whose version is no longer the product's is 409 and changes nothing; without it, nothing is refused for its age.
  version: z
    .number({ error: typeError("version must be a number") })
    .int("version must be a whole number")
    .min(0, "version cannot be negative")
    .max(Number.MAX_SAFE_INTEGER - 1, "version is too high")
    .optional(),
});
export type ProductInput = z.infer<typeof productInputSchema>;

/** One picture of a product; `n` in its URL is its place, 1 for the first. */
export const productImageSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  alt: z.string(),
  altText: z.string().nullable(),
  name: z.string(),
  type: z.string(),
});
export type ProductImageView = z.infer<typeof productImageSchema>;

/** A picture's alt text: the API's `images[].altText` and the product forms' alt text fields. */
export const altTextSchema = z.string().trim().max(ALT_TEXT_MAX, `Alt text must be at most ${ALT_TEXT_MAX} characters`).check(plainText("Alt text"));

/** The API's `images` part and the update form: the current pictures to keep, first to last, with their alt text. */
export const picturesInputSchema = z
  .array(
    z.object({
      id: z.number({ error: typeError("A picture's id must be a number") }).int("A picture's id must be a whole number").positive("A picture's id must be at least 1"),
      altText: altTextSchema.nullable().optional(),
    }),
  )
  .max(PRODUCT_IMAGES_MAX, `A product has at most ${PRODUCT_IMAGES_MAX} pictures`);
export type PicturesInput = z.infer<typeof picturesInputSchema>;

/** The product as the API returns it (API.md), plus the fields a shop page needs. */
export const productSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  brand: z.string(),
  description: z.string(),
  price: z.number(),
  category: z.enum(CATEGORIES),
  stockQuantity: z.number().int(),
  releaseDate: z.string(),
  productAvailable: z.boolean(),
  imageName: z.string().nullable(),
  imageUrl: z.string().nullable(),
  averageRating: z.number().nullable(),
  reviewCount: z.number().int(),
  /** Every picture, first to last: on GET /product/{id} and the answers of POST and PUT (the lists leave it out). */
  images: z.array(productImageSchema).optional(),
  /**
   * The product's edit version, raised by every save of it (not by orders moving stock): on GET /product/{id} and the
   * answers of POST and PUT. Sent back in PUT's `product.version`, it makes a save from an older copy a 409.
   */
  version: z.number().int().optional(),
});
export type ProductView = z.infer<typeof productSchema>;

export const sizeSchema = z.object({ id: z.number().int(), label: z.string(), stockQuantity: z.number().int() });
/** The product as the API sends it: with its sizes (stockQuantity is their total). */
export const apiProductSchema = productSchema.extend({
  sizes: z.array(sizeSchema).describe("The product's sizes in display order, each with its own stock; stockQuantity is their sum"),
});

/** What a product card shows. The grid pages read only this from D1 and send only this to the browser. */
export type ProductSummary = Pick<ProductView, "id" | "name" | "brand" | "price" | "stockQuantity" | "productAvailable" | "imageUrl" | "averageRating" | "reviewCount"> & {
  /** Whether a size must be chosen before adding to the cart. */
  sizeChoice: boolean;
};

// Query strings are text; these read them strictly (no "1e2" or " 3").
const positiveInt = (name: string, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${name} must be at least 1`).max(max, `${name} must be at most ${max}`));

/** An amount in rupees as a query gives it: digits with at most 2 decimals, no sign, exponent or spaces. */
const rupeesParam = (name: string) =>
  z
    .string()
    .refine((value) => !value.trim().startsWith("-"), `${name} cannot be negative`)
    .regex(/^\d{1,9}(\.\d{1,2})?$/, `${name} must be an amount in rupees, e.g. 5000 or 4999.50`)
    .transform(Number)
    .pipe(z.number().max(PRICE_MAX, `${name} must be at most ${PRICE_MAX}`));

/** The filters beside the category and sort (catalogue-filters.ts), on the grid, the search results and the API. */
export const filterQueryFields = {
  size: z
    .string()
    .trim()
    .min(1, "size must not be empty")
    .max(SIZE_LABEL_MAX, `size must be at most ${SIZE_LABEL_MAX} characters`)
    .check(plainText("size"))
    .optional(),
  brand: z.string().trim().min(1, "brand must not be empty").max(BRAND_MAX, `brand must be at most ${BRAND_MAX} characters`).check(plainText("brand")).optional(),
  minPrice: rupeesParam("minPrice").optional(),
  maxPrice: rupeesParam("maxPrice").optional(),
};

/** A price range whose ends are the wrong way round is refused, not read as empty. */
function priceRangeInOrder(query: { minPrice?: number; maxPrice?: number }, ctx: z.RefinementCtx) {
  if (query.minPrice !== undefined && query.maxPrice !== undefined && query.minPrice > query.maxPrice) {
    ctx.addIssue({ code: "custom", path: ["maxPrice"], message: "maxPrice must not be below minPrice" });
  }
}

export const listQuerySchema = z
  .object({
    // SPEC's category filter is "" for every category: sent as `?category=`, it means all of them.
    category: z.preprocess(blankIsAbsent, z.enum(CATEGORIES, { error: "Unknown category: use Gents, Ladies, Kids or Accessories" }).optional()),
    page: positiveInt("page").optional(),
    pageSize: positiveInt("pageSize", MAX_PAGE_SIZE).optional(),
    sort: z.enum(SORTS, { error: `sort must be one of ${SORTS.join(", ")}` }).optional(),
    ...filterQueryFields,
  })
  .superRefine(priceRangeInOrder);

export const keywordSchema = z
  .string({ error: "keyword is required" })
  .trim()
  .min(1, "keyword is required")
  .max(KEYWORD_MAX, `keyword must be at most ${KEYWORD_MAX} characters`)
  // D1 cuts a statement's text at a NUL; no name, brand or category a keyword could find holds control characters.
  .check(plainText("keyword"));

const searchQueryFields = {
  keyword: keywordSchema,
  page: positiveInt("page").optional(),
  pageSize: positiveInt("pageSize", MAX_PAGE_SIZE).optional(),
  ...filterQueryFields,
};

/**
 * GET /api/products/search: the keyword matched as typed (API.md), or with `fallback=words` by its words when nothing
 * has it, or with `fallback=spelling` by its words and then, when those find nothing either, with its spelling corrected.
 */
export const searchQuerySchema = z
  .object({
    ...searchQueryFields,
    fallback: z
      .enum(["words", "spelling"], { error: "fallback must be words or spelling" })
      .describe(
        "words: when no product contains the keyword as typed, answer with those that contain every word of it; spelling: that, and when nothing has the words either, the products of the keyword with its misspelt words corrected (X-Search-Match says which: phrase, words or spelling; X-Search-Corrected gives the corrected keyword, URI-encoded)",
      )
      .optional(),
  })
  .superRefine(priceRangeInOrder);

/**
 * The /search screen: the keyword as typed, or its words when nothing has it, or its spelling corrected when nothing has
 * those either; `match=words` keeps the words' results on the pages after the first (their Previous and Next links
 * carry it). A corrected keyword's pages correct it again: no address says what the correction is (a link could then
 * put any products under "Showing results for ...", and such a page would be kept in the shared cache).
 */
export const searchScreenQuerySchema = z
  .object({
    ...searchQueryFields,
    match: z.enum(["words"], { error: "match must be words" }).optional(),
  })
  .superRefine(priceRangeInOrder);
