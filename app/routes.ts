import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  // Screens
  index("routes/home.tsx"),
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("profile", "routes/profile.tsx"),
  route("logout", "routes/logout.ts"),
  route("theme", "routes/theme.ts"),
  route("product/:id", "routes/product.tsx"),
  route("search", "routes/search.tsx"),
  route("add_product", "routes/add-product.tsx"),
  route("product/update/:id", "routes/update-product.tsx"),
  route("cart", "routes/cart.tsx"),
  route("cart/add", "routes/cart.add.ts"),
  route("orders", "routes/orders.tsx"),
  route("orders/:id", "routes/order.tsx"),
  route("admin/dashboard", "routes/admin/dashboard.tsx"),
  route("admin/users", "routes/admin/users.tsx"),
  route("admin/orders", "routes/admin/orders.tsx"),
  route("admin/outbox", "routes/admin/outbox.tsx"),
  route("admin/stock", "routes/admin/stock.tsx"),
  route("admin/orders.csv", "routes/admin/orders-csv.ts"),
  route("admin/orders/:id", "routes/admin/order.tsx"),

  route("robots.txt", "routes/robots.ts"),
  route("healthz", "routes/healthz.ts"),
  route("healthz/db", "routes/healthz-db.ts"),
  route("sitemap.xml", "routes/sitemap.ts", { id: "sitemap-index" }),
  route("sitemaps/:file", "routes/sitemap.ts"),

  // REST API: one module per resource, each a table of endpoints
  route("api/auth/*", "routes/api/auth.ts"),
  route("api/products/*", "routes/api/products.ts"),
  route("api/product/*", "routes/api/product.ts"),
  route("api/cart/*", "routes/api/cart.ts"),
  route("api/orders/*", "routes/api/orders.ts"),
  route("api/reviews/*", "routes/api/reviews.ts"),
  route("api/stats/*", "routes/api/stats.ts"),
  route("api/openapi.json", "routes/api/openapi.ts"),
  route("api/*", "routes/api/not-found.ts"),

  // Anything else: the 404 page inside the frame
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
