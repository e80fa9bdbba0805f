import { defineConfig } from "vitest/config";

// `npm test`: both projects. Each keeps its own config file (the React Router plugin refuses an inline project).
export default defineConfig({
  test: {
    projects: ["./vitest.unit.config.ts", "./vitest.workers.config.ts"],
  },
});
