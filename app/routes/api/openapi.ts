import type { ApiArgs } from "~/lib/api.server";
import { openApiResource } from "./openapi.server";

export const loader = (args: ApiArgs) => openApiResource.handle(args);
export const action = loader;
