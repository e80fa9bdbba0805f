import type { ReactNode } from "react";

/**
 * A detail cell of the back office's lists: a column of the table on a wide screen, a labelled line of the row's card
 * on a phone (the label shows only there: `.cell-label` in app.css).
 */
export function DetailCell({ label, className = "", children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <td role="cell" className={className}>
      <span aria-hidden="true" className="cell-label">
        {label}
      </span>
      {children}
    </td>
  );
}
