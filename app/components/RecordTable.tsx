import type { ReactNode } from "react";

/**
 * The back office's lists of records (users, low-stock sizes): one table at every width (record-table in app.css); on
 * a phone each row becomes a small card. The explicit roles keep it a table for screen readers, which some browsers
 * stop doing once a table's display changes. `children` are its rows: a `rowheader` first, then DetailCells.
 */
export function RecordTable({
  caption,
  headings,
  columnClasses,
  testId,
  children,
}: {
  caption: string;
  headings: readonly string[];
  /**
   * A class for each column's <col> on a wide screen: its share of the table ("md:w-[30%]"). Without them the browser
   * shares the width out by content, which can squeeze a column of unbreakable text (e-mails) while another has room.
   */
  columnClasses?: readonly string[];
  testId: string;
  children: ReactNode;
}) {
  return (
    <div className="card mt-6 md:overflow-x-auto">
      <table role="table" className="record-table" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        {columnClasses && (
          <colgroup>
            {columnClasses.map((className, index) => (
              <col key={index} className={className} />
            ))}
          </colgroup>
        )}
        <thead role="rowgroup">
          <tr role="row">
            {headings.map((heading) => (
              <th key={heading} role="columnheader" scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">{children}</tbody>
      </table>
    </div>
  );
}

/** A detail cell of a RecordTable: a column on a wide screen, a labelled line of the row's card on a phone. */
export function DetailCell({
  label,
  className = "",
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <td role="cell" className={className}>
      <span aria-hidden="true" className="cell-label">
        {label}
      </span>
      {children}
    </td>
  );
}
