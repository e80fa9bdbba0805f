import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Pure functions in Node: formatting, cookies, password hashing, schemas, the redirect guard.
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    name: "unit",
    environment: "node",
    include: ["tests/unit/**/*.test.ts"],
  },
});
