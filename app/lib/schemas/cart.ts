import { z } from "../zod";

// Query strings are text: read strictly, whole numbers only. However many digits: a quantity of 99999999999 is above
// stock (409, as API.md says), not bad input, and an id that long is no product (404); past the safe integers it
// stays a number so large that both still hold.
const integerText = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .regex(/^-?\d{1,100}$/, `${name} must be a whole number`)
    .transform((text) => Math.min(Math.max(Number(text), Number.MIN_SAFE_INTEGER), Number.MAX_SAFE_INTEGER));

export const cartProductQuerySchema = z.object({
  productId: integerText("productId").pipe(z.number().min(1, "productId must be at least 1")),
  // Optional (additive to API.md): which of the product's sizes; a one-size product needs none.
  sizeId: integerText("sizeId").pipe(z.number().min(1, "sizeId must be at least 1")).optional(),
});
export const cartAddQuerySchema = cartProductQuerySchema.extend({
  quantity: integerText("quantity").pipe(z.number().min(1, "quantity must be at least 1")).optional(),
});
export const cartSetQuerySchema = cartProductQuerySchema.extend({
  quantity: integerText("quantity"),
});

export const cartMergeSchema = z.object({
  items: z
    .array(
      z.object({
        productId: z.number().int().min(1),
        sizeId: z.number().int().min(1).optional(),
        // Any quantity: the merge caps each line at its size's stock (API.md).
        quantity: z.number().int().min(1),
      }),
    )
    .max(100, "At most 100 lines"),
});

export const cartLineSchema = z.object({
  productId: z.number().int(),
  productName: z.string(),
  brand: z.string(),
  unitPrice: z.number(),
  quantity: z.number().int(),
  stockQuantity: z.number().int(),
  imageUrl: z.string().nullable(),
  productAvailable: z.boolean(),
  sizeId: z.number().int(),
  sizeLabel: z.string(),
});
export type CartLine = z.infer<typeof cartLineSchema>;
