import type { ApiArgs } from "~/lib/api.server";
import { productsApi } from "./products.server";

export const loader = (args: ApiArgs) => productsApi.handle(args);
export const action = loader;
