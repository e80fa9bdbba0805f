import type { ApiArgs } from "~/lib/api.server";
import { cartApi } from "./cart.server";

export const loader = (args: ApiArgs) => cartApi.handle(args);
export const action = loader;
