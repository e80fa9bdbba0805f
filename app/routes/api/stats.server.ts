import { apiResource, endpoint, json } from "~/lib/api.server";
import { statsSchema } from "~/lib/schemas/stats";
import { getStats } from "~/services/stats.server";

export const statsApi = apiResource("/api/stats", {
  "GET /": endpoint({
    summary:
      "The dashboard's figures (admin): totalProducts, totalUsers, pendingOrders, and totalRevenue in rupees (the orders CONFIRMED, PROCESSING, SHIPPED or DELIVERED)",
    auth: "admin",
    responses: {
      200: { description: "Stats", schema: statsSchema },
      401: { description: "No token, or an invalid or expired one" },
      403: { description: "Not an admin" },
    },
    handler: async ({ context }) => json(await getStats(context.db), { headers: { "Cache-Control": "private, no-store" } }),
  }),
});
