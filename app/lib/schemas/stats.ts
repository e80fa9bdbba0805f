import { z } from "../zod";

import type { OrderStatus } from "../constants";

/** Orders whose payment was verified: what the revenue counts (API.md, Stats). */
export const REVENUE_STATUSES = ["CONFIRMED", "PROCESSING", "SHIPPED", "DELIVERED"] as const satisfies readonly OrderStatus[];

export const statsSchema = z.object({
  totalProducts: z.number().int().min(0),
  totalUsers: z.number().int().min(0),
  pendingOrders: z.number().int().min(0),
  /** Rupees, at most 2 decimals: the sum of `totalAmount` over orders in REVENUE_STATUSES. */
  totalRevenue: z.number().min(0),
});
export type Stats = z.infer<typeof statsSchema>;
