import type { ApiArgs } from "~/lib/api.server";
import { authApi } from "./auth.server";

export const loader = (args: ApiArgs) => authApi.handle(args);
export const action = loader;
