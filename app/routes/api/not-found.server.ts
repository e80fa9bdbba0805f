import { apiResource } from "~/lib/api.server";

// Any /api path no resource claims: a JSON 404, never the HTML 404 page.
export const unknownApi = apiResource("/api", {});
