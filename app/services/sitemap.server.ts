import { and, asc, gte, lte, max } from "drizzle-orm";

import { type Db, schema } from "./db.server";

const { products } = schema;
/** Product URLs per sitemap file: well under the protocol's 50,000, and each file one indexed range read. */
export const SITEMAP_PAGE_IDS = 10_000;

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] as string);

/** The index: one product sitemap per range of 10,000 ids, so a large catalogue never needs one huge file. */
export async function sitemapIndex(db: Db, origin: string): Promise<string> {
  const [{ highest }] = await db.select({ highest: max(products.id) }).from(products);
  const pages = Math.max(1, Math.ceil((highest ?? 0) / SITEMAP_PAGE_IDS));
  const entries = [`<sitemap><loc>${origin}/sitemaps/pages.xml</loc></sitemap>`];
  for (let page = 1; page <= pages; page++) entries.push(`<sitemap><loc>${origin}/sitemaps/products-${page}.xml</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join("")}</sitemapindex>\n`;
}

function urlset(urls: { loc: string; lastmod?: string }[]): string {
  const body = urls.map(({ loc, lastmod }) => `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</urlset>\n`;
}

export function staticSitemap(origin: string): string {
  return urlset(["/", "/?category=Gents", "/?category=Ladies", "/?category=Kids", "/?category=Accessories"].map((path) => ({ loc: origin + path })));
}

export async function productSitemap(db: Db, origin: string, page: number): Promise<string> {
  const first = (page - 1) * SITEMAP_PAGE_IDS + 1;
  const rows = await db
    .select({ id: products.id, updatedAt: products.updatedAt })
    .from(products)
    .where(and(gte(products.id, first), lte(products.id, first + SITEMAP_PAGE_IDS - 1)))
    .orderBy(asc(products.id));
  return urlset(rows.map((row) => ({ loc: `${origin}/product/${row.id}`, lastmod: new Date(row.updatedAt).toISOString().slice(0, 10) })));
}
