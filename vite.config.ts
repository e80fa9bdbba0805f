import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

import { reactTextWriter } from "./scripts/react-text-writer.ts";

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/**
 * React Router's package.json sends every import to its development build, production included
 * (remix-run/react-router#14102): dev-only warnings and checks in the browser and on the server. A build resolves it to
 * the production build that ships alongside.
 */
const reactRouterProductionBuild = [
  { find: /^react-router$/, replacement: path("./node_modules/react-router/dist/production/index.mjs") },
  { find: /^react-router\/dom$/, replacement: path("./node_modules/react-router/dist/production/dom-export.mjs") },
];

export default defineConfig(({ command }) => ({
  plugins: [
    // `npm run dev` keeps every mail (MAIL_MODE=keep over wrangler.jsonc's "send", which is for deployments); a build
    // leaves the config as it is.
    cloudflare({ viteEnvironment: { name: "ssr" }, config: command === "serve" ? (config) => ({ vars: { ...config.vars, MAIL_MODE: "keep" } }) : undefined }),
    tailwindcss(),
    reactRouter(),
    reactTextWriter(),
  ],
  resolve: {
    alias: [{ find: /^~\//, replacement: `${path("./app")}/` }, ...(command === "build" ? reactRouterProductionBuild : [])],
  },
}));
