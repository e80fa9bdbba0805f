// The constant floor of `npm run bench`: the Worker and the router, no data and no rendering.
export function loader() {
  return new Response("ok", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
