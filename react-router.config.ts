import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // v8_passThroughRequests: loaders and actions get the request as it came (no copy per handler, so one session read
  // serves every loader of a page) and read the route's URL from `url`, as React Router 8 does.
  future: { v8_viteEnvironmentApi: true, v8_passThroughRequests: true },
} satisfies Config;
