import type { ApiArgs } from "~/lib/api.server";
import { ordersApi } from "./orders.server";

export const loader = (args: ApiArgs) => ordersApi.handle(args);
export const action = loader;
