import { z } from "zod";

import { apiResource, endpoint, json, type ApiResource } from "~/lib/api.server";
import { RENDERED_FOR_HEADER, SIGNED_IN_AS_ANOTHER } from "~/lib/rendered-for";
import { authApi } from "./auth.server";
import { cartApi } from "./cart.server";
import { ordersApi } from "./orders.server";
import { productApi } from "./product.server";
import { productsApi } from "./products.server";
import { reviewsApi } from "./reviews.server";
import { statsApi } from "./stats.server";

// Every resource joins this list; the document is built from the tables the routes dispatch and validate with.
const resources: ApiResource[] = [authApi, productsApi, productApi, cartApi, ordersApi, reviewsApi, statsApi];

const errorSchema = z.object({ message: z.string(), fieldErrors: z.record(z.string(), z.array(z.string())).optional() });
const toSchema = (schema: z.ZodType, io: "input" | "output") => z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" });

/** The optional header every call that needs a login takes (app/lib/rendered-for.ts), and its 409. */
const renderedForHeader = {
  name: RENDERED_FOR_HEADER,
  in: "header",
  required: false,
  description: "The id of the user the client's screen shows (a browser tab's). When the token is another user's, the call is refused with 409 and changes nothing.",
  schema: { type: "integer", minimum: 1 },
};
const RENDERED_FOR_409 = `${RENDERED_FOR_HEADER} names another user than the token's: "${SIGNED_IN_AS_ANOTHER}"`;

function buildDocument(all: ApiResource[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, path, definition: declared } of all.flatMap((resource) => resource.entries)) {
    const signedIn = declared.auth === "user" || declared.auth === "admin";
    const conflict = declared.responses[409]?.description;
    const definition = signedIn ? { ...declared, responses: { ...declared.responses, 409: { description: conflict ? `${conflict}; or ${RENDERED_FOR_409}` : RENDERED_FOR_409 } } } : declared;
    const parameters = [
      ...[...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "integer", minimum: 1 } })),
      ...Object.entries(definition.query?.shape ?? {}).map(([name, schema]) => ({
        name,
        in: "query",
        required: !(schema as z.ZodType).safeParse(undefined).success,
        schema: toSchema(schema as z.ZodType, "input"),
      })),
      ...Object.entries(definition.headers?.shape ?? {}).map(([name, schema]) => ({
        name,
        in: "header",
        required: !(schema as z.ZodType).safeParse(undefined).success,
        ...((schema as z.ZodType).description ? { description: (schema as z.ZodType).description } : {}),
        schema: toSchema(schema as z.ZodType, "input"),
      })),
      ...(signedIn ? [renderedForHeader] : []),
    ];
    const multipart = definition.multipart && {
      type: "object",
      properties: Object.fromEntries(
        Object.entries(definition.multipart).map(([name, field]) => [
          name,
          field === "binary" ? { type: "string", format: "binary" } : { type: "string", contentMediaType: "application/json", contentSchema: toSchema(field, "input") },
        ]),
      ),
    };
    const requestBody = definition.body
      ? { required: true, content: { "application/json": { schema: toSchema(definition.body, "input") } } }
      : multipart
        ? { required: true, content: { "multipart/form-data": { schema: multipart } } }
        : undefined;
    const responses = Object.fromEntries(
      Object.entries(definition.responses).map(([status, response]) => {
        const schema = response.schema ? toSchema(response.schema, "output") : Number(status) >= 400 ? toSchema(errorSchema, "output") : undefined;
        const contentType = response.contentType ?? "application/json";
        return [status, { description: response.description, ...(schema || response.contentType ? { content: { [contentType]: schema ? { schema } : {} } } : {}) }];
      }),
    );
    (paths[path] ??= {})[method.toLowerCase()] = {
      summary: definition.summary,
      ...(definition.auth === "user" || definition.auth === "admin" ? { security: [{ bearerAuth: [] }] } : {}),
      ...(definition.auth === "optional" ? { security: [{}, { bearerAuth: [] }] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Stride API", version: "1.0.0", description: "The REST API of the Stride shop. Errors are {message, fieldErrors?}." },
    servers: [{ url: "/" }],
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    paths,
  };
}

export const openApiResource = apiResource("/api/openapi.json", {
  "GET /": endpoint({
    summary: "This document: every /api route in OpenAPI 3.1",
    auth: "none",
    responses: { 200: { description: "The OpenAPI document" } },
    handler: () => json(buildDocument([...resources, openApiResource])),
  }),
});
