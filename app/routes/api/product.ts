import type { ApiArgs } from "~/lib/api.server";
import { productApi } from "./product.server";

export const loader = (args: ApiArgs) => productApi.handle(args);
export const action = loader;
