import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  // Screens
  index("routes/home.tsx"),
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("profile", "routes/profile.tsx"),
  route("logout", "routes/logout.ts"),
  route("theme", "routes/theme.ts"),
  route("product/:id", "routes/product.tsx"),
  route("search", "routes/search.tsx"),
  route("add_product", "routes/add-product.tsx"),
  route("product/update/:id", "routes/update-product.tsx"),
  route("cart/add", "routes/cart.add.ts"),

  // REST API: one module per resource, each a table of endpoints
  route("api/auth/*", "routes/api/auth.ts"),
  route("api/products/*", "routes/api/products.ts"),
  route("api/product/*", "routes/api/product.ts"),
  route("api/openapi.json", "routes/api/openapi.ts"),
  route("api/*", "routes/api/not-found.ts"),

  // Anything else: the 404 page inside the frame
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
