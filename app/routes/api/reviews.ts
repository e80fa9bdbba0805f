import type { ApiArgs } from "~/lib/api.server";
import { reviewsApi } from "./reviews.server";

export const loader = (args: ApiArgs) => reviewsApi.handle(args);
export const action = loader;
