import { useEffect, useRef, useState, type MouseEvent } from "react";

import { CATEGORIES, type Category } from "~/lib/constants";
import { CATEGORY_SIZES, ONE_SIZE, SIZE_LABEL_MAX, SIZES_MAX, type SizeView } from "~/lib/sizes";

/** Empty rows at the end of the table: without JavaScript, that is how an admin adds sizes. */
const BLANK_ROWS = 2;

interface Row {
  key: string;
  id?: number;
  label: string;
  stock: string;
  /** A saved size's stock when the form was loaded: the server applies the change, not the number (stockWas). */
  stockWas?: number;
  /** A size ticked Remove (a saved one, or a new one typed): it leaves the total, and the save skips it. */
  removed?: boolean;
  /** The label "Use the category's sizes" put in this row: while the row still says that at 0, the next fill replaces it. */
  filled?: string;
}

const blankRows = (count: number): Row[] => Array.from({ length: count }, () => ({ key: crypto.randomUUID(), label: "", stock: "" }));

/**
 * The rows of a posted form (`sizes.{n}.*`), in its order, or null when it had none. A saved size keeps the stock it
 * had when the form was first loaded (stockWas): the save then moves its stock by what the admin typed, and pairs sold
 * while they logged in again stay sold.
 */
function keptRows(kept: URLSearchParams): Row[] | null {
  const indices = new Set<number>();
  for (const name of kept.keys()) {
    const match = /^sizes\.(\d{1,3})\./.exec(name);
    if (match) indices.add(Number(match[1]));
  }
  if (!indices.size) return null;
  return [...indices]
    .sort((a, b) => a - b)
    .map((index) => {
      const value = (field: string) => kept.get(`sizes.${index}.${field}`);
      const id = Number(value("id")) || undefined;
      const stockWas = /^\d+$/.test(value("stockWas") ?? "") ? Number(value("stockWas")) : undefined;
      return { key: id ? String(id) : crypto.randomUUID(), id, label: value("label") ?? "", stock: value("stock") ?? "", stockWas, removed: value("remove") === "on" || undefined };
    });
}

/** Whether a row holds anything to save or remove: a blank row is skipped by the save, so it has no Remove box. */
const hasContent = (row: Row) => row.id !== undefined || row.label.trim() !== "" || row.stock.trim() !== "";

/**
 * The product form's sizes: a row a size (label, its own stock, a Remove box), posted as `sizes.{n}.id`, `.label`,
 * `.stock` and `.remove` (read by app/lib/product-form.server.ts, which skips a row ticked Remove and an empty row).
 * Works without JavaScript (blank rows to fill in; a saved size's Remove box); with it, rows can be added and filled
 * with the category's usual sizes, a row typed has the same Remove box as a saved one, and the total follows as you
 * type. Removing a size that past orders used keeps those orders intact: they hold its label.
 */
export function SizesEditor({
  sizes,
  errors,
  restocking,
  kept,
}: {
  sizes?: SizeView[];
  errors?: Record<string, string[] | undefined>;
  restocking?: number;
  /** The form as it was posted before a session ended (app/lib/kept-form.ts): its rows, as typed. */
  kept?: URLSearchParams | null;
}) {
  const [rows, setRows] = useState<Row[]>(
    () =>
      (kept && keptRows(kept)) ?? [
        ...(sizes?.length ? sizes.map((size) => ({ key: String(size.id), id: size.id, label: size.label, stock: String(size.stockQuantity), stockWas: size.stockQuantity })) : [{ key: "one", label: ONE_SIZE, stock: "0" }]),
        ...blankRows(BLANK_ROWS),
      ],
  );
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // Opened from a low-stock list for one size (`restocking`, its id): its row is marked, and its stock field takes the
  // focus, in view, so the admin types the new figure at once (on a phone the table is far below the form's top).
  const restockStock = useRef<HTMLInputElement>(null);
  useEffect(() => {
    restockStock.current?.focus({ preventScroll: true });
    restockStock.current?.scrollIntoView({ block: "center" });
  }, []);
  const total = rows.reduce((sum, row) => sum + (!row.removed && /^\d+$/.test(row.stock) ? Number(row.stock) : 0), 0);
  const change = (key: string, changes: Partial<Row>) => setRows((all) => all.map((row) => (row.key === key ? { ...row, ...changes } : row)));

  /**
   * Adds the chosen category's usual sizes after the saved ones, and never loses what was typed: a typed row of one of
   * those labels gives it its stock, other typed rows follow them. What nobody typed goes: blank rows, the untouched
   * "One size", and the rows an earlier fill put in that still say what it put (its label, at 0), so choosing another
   * category and filling again replaces that category's sizes instead of piling the two up.
   */
  const fillFromCategory = (event: MouseEvent<HTMLButtonElement>) => {
    const chosen = (event.currentTarget.form?.elements.namedItem("category") as HTMLSelectElement | null)?.value as Category | undefined;
    if (!chosen || !CATEGORIES.includes(chosen)) return;
    setRows((all) => {
      const saved = all.filter((row) => row.id !== undefined);
      // Nothing typed: a blank row, the form's own "One size" at 0, or a row as a fill left it. A row with only a stock
      // typed is kept, and so is a filled row whose stock was typed.
      const untouched = (row: Row) => /^0?$/.test(row.stock.trim()) && (row.label.trim() === "" || row.label === ONE_SIZE || row.label === row.filled);
      const typed = all.filter((row) => row.id === undefined && !row.removed && !untouched(row));
      const byLabel = new Map(typed.map((row) => [row.label.trim().toLowerCase(), row]));
      const taken = new Set(saved.map((row) => row.label.trim().toLowerCase()));
      const fresh = CATEGORY_SIZES[chosen]
        .filter((label) => !taken.has(label.toLowerCase()))
        .map((label) => byLabel.get(label.toLowerCase()) ?? { key: crypto.randomUUID(), label, stock: "0", filled: label });
      const others = typed.filter((row) => !fresh.includes(row));
      return [...saved, ...fresh, ...others, ...blankRows(1)];
    });
  };

  // Every field of the row with something wrong, one message each (a row can have a bad label and a bad stock).
  const rowError = (index: number) => ["label", "stockQuantity", "id"].flatMap((field) => errors?.[`sizes.${index}.${field}`]?.slice(0, 1) ?? []).join(" ") || undefined;
  return (
    <fieldset className="rounded-2xl border border-slate-200 p-4 dark:border-slate-800">
      <legend className="px-1 text-sm font-semibold">Sizes and stock</legend>
      <p id="sizes-hint" className="text-xs text-slate-500 dark:text-slate-400">
        Each size has its own stock; the product's stock quantity is their total. Empty rows are skipped. A product sold without sizes has one row, "{ONE_SIZE}".
      </p>
      {errors?.sizes && (
        <p role="alert" className="field-error">
          {errors.sizes[0]}
        </p>
      )}
      {/* A post that sends the product's stockQuantity itself (no sizes table) has its message here. */}
      {errors?.stockQuantity && (
        <p id="stockQuantity-error" role="alert" className="field-error">
          {errors.stockQuantity[0]}
        </p>
      )}
      {/* Fixed columns, so that on a phone the label (the widest value) gets the room, not the stock or Remove. */}
      <table className="mt-3 w-full table-fixed text-sm">
        <colgroup>
          <col />
          <col className="w-24 sm:w-28" />
          <col className="w-[4.5rem]" />
        </colgroup>
        <thead className="text-left text-xs uppercase tracking-wider text-slate-500 dark:text-slate-400">
          <tr>
            <th scope="col" className="pb-1 font-semibold">
              Size
            </th>
            {/* Right-aligned, as the figures are (they line up by their units, and with the total). */}
            <th scope="col" className="pr-[calc(0.5rem+0.75rem+1px)] pb-1 text-right font-semibold">
              Stock
            </th>
            <th scope="col" className="pb-1 text-center font-semibold">
              Remove
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const error = rowError(index);
            // A saved size always has its Remove box (without JavaScript too); a new row once something is typed in it
            // (or while it is ticked, so that it can be unticked).
            const removable = row.id !== undefined || (hydrated && (hasContent(row) || !!row.removed));
            return (
              <tr
                key={row.key}
                className={`align-top ${row.removed ? "opacity-60 [&_input:not([type=checkbox])]:line-through" : ""} ${row.id !== undefined && row.id === restocking ? "bg-amber-50 dark:bg-amber-400/10" : ""}`}
                data-restocking={row.id !== undefined && row.id === restocking ? "" : undefined}
              >
                <td className="py-1 pr-2">
                  {row.id !== undefined && <input type="hidden" name={`sizes.${index}.id`} value={row.id} />}
                  {row.stockWas !== undefined && <input type="hidden" name={`sizes.${index}.stockWas`} value={row.stockWas} />}
                  <input
                    name={`sizes.${index}.label`}
                    value={row.label}
                    onChange={(event) => change(row.key, { label: event.currentTarget.value })}
                    maxLength={SIZE_LABEL_MAX}
                    placeholder={row.id === undefined ? "e.g. EU 42" : undefined}
                    aria-label={`Size ${index + 1}`}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `sizes-${index}-error` : undefined}
                    className="field-input"
                  />
                  {error && (
                    <p id={`sizes-${index}-error`} className="field-error">
                      {error}
                    </p>
                  )}
                </td>
                <td className="py-1 pr-2">
                  <input
                    ref={row.id !== undefined && row.id === restocking ? restockStock : undefined}
                    name={`sizes.${index}.stock`}
                    value={row.stock}
                    onChange={(event) => change(row.key, { stock: event.currentTarget.value })}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    step={1}
                    aria-label={`Stock of size ${index + 1}`}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `sizes-${index}-error` : undefined}
                    className="field-input text-right tabular-nums"
                  />
                </td>
                <td className="py-1">
                  {removable && (
                    // The column's heading says "Remove"; the box's own name says which size (and holds the word).
                    <label className="mx-auto flex size-11 cursor-pointer items-center justify-center rounded-lg">
                      <input
                        type="checkbox"
                        name={`sizes.${index}.remove`}
                        checked={row.removed ?? false}
                        onChange={(event) => change(row.key, { removed: event.currentTarget.checked })}
                        className="size-5 accent-red-600"
                        aria-label={`Remove size ${row.label.trim() || index + 1}`}
                      />
                    </label>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr className="border-t border-slate-200 dark:border-slate-800">
            {/* One cell across the table, so that the words have the Size and Stock columns' room on a phone (they do not
                fit the Size column alone), and the total ends where the stock figures end (their field's padding and
                border, the cell's, then the Remove column). */}
            <td colSpan={3} className="pt-2">
              <div className="flex items-baseline justify-between gap-3 font-semibold">
                <span id="sizes-total-label">Stock quantity (total)</span>
                <output aria-labelledby="sizes-total-label" aria-live="polite" data-testid="sizes-total" className="mr-[calc(4.5rem+0.5rem+0.75rem+1px)] tabular-nums">
                  {total}
                </output>
              </div>
            </td>
          </tr>
        </tfoot>
      </table>
      {hydrated && (
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className="btn-secondary" disabled={rows.length >= SIZES_MAX + BLANK_ROWS} onClick={() => setRows((all) => [...all, ...blankRows(1)])}>
            Add size
          </button>
          <button type="button" className="btn-secondary" onClick={fillFromCategory}>
            Use the category's sizes
          </button>
        </div>
      )}
    </fieldset>
  );
}
