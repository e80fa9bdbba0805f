import { useSearchParams } from "react-router";

import { SAVED_PARAM } from "~/lib/restock";
import { savedMessage, type StockMove } from "~/lib/stock-moves";
import { Toast } from "./Toast";

/**
 * A product form opened from a low-stock list comes back to it once saved (app/lib/restock.ts), and says so; with the
 * sizes saved as another stock than typed (`moves`, read by the page's loader), it says those too, and stays until
 * closed.
 */
export function SavedToast({ moves }: { moves?: StockMove[] | null }) {
  const [searchParams] = useSearchParams();
  return <Toast message={searchParams.has(SAVED_PARAM) ? savedMessage(moves) : null} id={searchParams.get(SAVED_PARAM)} lasting={!!moves?.length} />;
}
