import type { ApiArgs } from "~/lib/api.server";
import { statsApi } from "./stats.server";

export const loader = (args: ApiArgs) => statsApi.handle(args);
export const action = loader;
