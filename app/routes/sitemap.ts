import { data } from "react-router";

import { productSitemap, sitemapIndex, staticSitemap } from "~/services/sitemap.server";
import type { Route } from "./+types/sitemap";

const xml = (body: string) => new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });

// /sitemap.xml (the index), /sitemaps/pages.xml and /sitemaps/products-<n>.xml.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const origin = new URL(request.url).origin;
  const file = params.file;
  if (!file) return xml(await sitemapIndex(context.db, origin));
  if (file === "pages.xml") return xml(staticSitemap(origin));
  const page = /^products-(\d{1,6})\.xml$/.exec(file)?.[1];
  if (!page || Number(page) < 1) throw data("Not found", { status: 404 });
  return xml(await productSitemap(context.db, origin, Number(page)));
}
