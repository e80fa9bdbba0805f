import type { ApiArgs } from "~/lib/api.server";
import { unknownApi } from "./not-found.server";

export const loader = (args: ApiArgs) => unknownApi.handle(args);
export const action = loader;
