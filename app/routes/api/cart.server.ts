import { z } from "zod";

import { apiResource, endpoint, json } from "~/lib/api.server";
import { cartAddQuerySchema, cartLineSchema, cartMergeSchema, cartProductQuerySchema, cartSetQuerySchema } from "~/lib/schemas/cart";
import {
  addToServerCart,
  clearServerCart,
  getServerCart,
  mergeIntoServerCart,
  removeFromServerCart,
  setServerCartQuantity,
} from "~/services/cart.server";

const lines = { description: "The cart's lines", schema: z.array(cartLineSchema) };
const errors = {
  400: { description: "Bad input" },
  401: { description: "No token, or an invalid or expired one" },
  404: { description: "No such product" },
  409: { description: "Cannot add more than available stock (a sold-out size or product too); This product is out of stock (taken off sale)" },
} as const;

export const cartApi = apiResource("/api/cart", {
  "GET /": endpoint({
    summary: "The logged-in customer's cart",
    auth: "user",
    responses: { 200: lines, 401: errors[401] },
    handler: async ({ context, user }) => json(await getServerCart(context.db, user.id)),
  }),
  "POST /add": endpoint({
    summary: "Add a quantity (default 1) of a product in a size (sizeId; not needed for a one-size product, else 400 'Please select a size') to the cart, capped at that size's stock",
    auth: "user",
    query: cartAddQuerySchema,
    responses: { 200: lines, ...errors },
    handler: async ({ context, user, query }) => {
      await addToServerCart(context.db, user.id, query.productId, query.sizeId, query.quantity ?? 1);
      return json(await getServerCart(context.db, user.id));
    },
  }),
  "PUT /set": endpoint({
    summary: "Set a line's quantity (the line of sizeId; without it, the product's only size or only line); 0 or below removes the line; lowering a line is always allowed, raising it or a new line above the size's stock (or of a sold-out size or a product off sale) is 409",
    auth: "user",
    query: cartSetQuerySchema,
    responses: { 200: lines, ...errors },
    handler: async ({ context, user, query }) => {
      await setServerCartQuantity(context.db, user.id, query.productId, query.sizeId, query.quantity);
      return json(await getServerCart(context.db, user.id));
    },
  }),
  "DELETE /remove": endpoint({
    summary: "Remove a product's line in sizeId, or without sizeId every line of the product",
    auth: "user",
    query: cartProductQuerySchema,
    responses: { 200: lines, 400: errors[400], 401: errors[401] },
    handler: async ({ context, user, query }) => {
      await removeFromServerCart(context.db, user.id, query.productId, query.sizeId);
      return json(await getServerCart(context.db, user.id));
    },
  }),
  "DELETE /clear": endpoint({
    summary: "Empty the cart",
    auth: "user",
    responses: { 200: lines, 401: errors[401] },
    handler: async ({ context, user }) => {
      await clearServerCart(context.db, user.id);
      return json([]);
    },
  }),
  "POST /merge": endpoint({
    summary: "Add a visitor's lines ({productId, sizeId?, quantity}) to the saved cart: quantities add up, each line capped at its size's stock, unknown products and sizes skipped",
    auth: "user",
    body: cartMergeSchema,
    responses: { 200: lines, 400: errors[400], 401: errors[401] },
    handler: async ({ context, user, body }) => {
      await mergeIntoServerCart(context.db, user.id, body.items);
      return json(await getServerCart(context.db, user.id));
    },
  }),
});
