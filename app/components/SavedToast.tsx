import { useSearchParams } from "react-router";

import { SAVED_PARAM } from "~/lib/restock";
import { Toast } from "./Toast";

/** A product form opened from a low-stock list comes back to it once saved (app/lib/restock.ts), and says so. */
export function SavedToast() {
  const [searchParams] = useSearchParams();
  return <Toast message={searchParams.has(SAVED_PARAM) ? "Product saved" : null} id={searchParams.get(SAVED_PARAM)} />;
}
