import type { Route } from "./+types/robots";

// Private and per-visitor pages stay out of search engines; everything else is welcome.
export function loader({ request }: Route.LoaderArgs) {
  const origin = new URL(request.url).origin;
  const body = ["User-agent: *", "Disallow: /admin", "Disallow: /cart", "Disallow: /profile", "Disallow: /orders", "Disallow: /add_product", "Disallow: /product/update/", "Disallow: /api/", "Allow: /", "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" } });
}
