import { data } from "react-router";

import { NotFoundPage } from "~/components/ErrorPage";

// Unknown addresses: a 404 status with the page inside the usual frame (the root loader still runs).
export function loader() {
  throw data(null, { status: 404 });
}

export function ErrorBoundary() {
  return <NotFoundPage />;
}

export function meta() {
  return [{ title: "Page not found | Stride" }];
}

export default function NotFound() {
  return null;
}
