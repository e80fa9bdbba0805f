import { useRef, type ReactNode } from "react";
import { Form, useLocation, useSubmit } from "react-router";

import { activeFilterCount, type CatalogueFilters, type FilterProblem } from "~/lib/catalogue-filters";
import { AppLink } from "./AppLink";
import { useFieldsFromUrl } from "./useFieldsFromUrl";
import { useSelectCommit } from "./useSelectCommit";

/** The form's fields without the empty ones, so the URL says only what is chosen (no `minPrice=&maxPrice=`). */
function compact(form: HTMLFormElement): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === "string" && value.trim() !== "") params.append(name, value);
  return params;
}

export interface FiltersProps {
  /** The sizes to offer (filterSizes: the category's, or every shoe size); none hides the size control. */
  sizes: string[];
  /** The brands to offer (those of the category, or of the whole catalogue). */
  brands: string[];
  values: CatalogueFilters;
  /** What the form must carry along unchanged: the category and sort on the grid, the keyword on search. */
  keep: Record<string, string>;
  /** Where "Clear all" goes: the same listing without the filters. */
  clearHref: string;
  /** Why part of the URL's filters was set aside (a price range the wrong way round, say). */
  problems: FilterProblem[];
}

/**
 * The filters of a listing: a GET form, so the filters are in the URL and work without JavaScript. On phones it folds
 * behind a "Filters" disclosure (a <details>, so it opens without JavaScript too); on wide screens app.css shows it as
 * a bar, always open. With JavaScript a size or brand picked with the pointer applies at once, one chosen with the
 * keyboard on Enter or on leaving the select (useSelectCommit); prices apply with Apply or Enter, not at every
 * keystroke; and empty fields stay out of the URL (without it the browser sends them empty, which the loaders ignore).
 *
 * The panel stays mounted from one URL to the next, so the focus stays on the control that applied a choice; its fields
 * follow the URL's values (a "Clear all", Back) through useFieldsFromUrl.
 */
export function Filters({ sizes, brands, values, keep, clearHref, problems }: FiltersProps) {
  const submit = useSubmit();
  // A choice made in the open panel says so in the navigation's state, so on a phone the panel stays open for the next.
  const reopened = (useLocation().state as FiltersNavigationState | null)?.filtersOpen === true;
  // The page stays where it is (preventScrollReset): on a phone the panel is a screen down, and the control that applied
  // the choice keeps the focus, so jumping to the top would leave it out of view.
  const apply = (form: HTMLFormElement) =>
    submit(compact(form), { method: "get", preventScrollReset: true, state: { filtersOpen: form.closest("details")?.open ?? false } satisfies FiltersNavigationState });
  const selects = useSelectCommit(apply);
  const form = useRef<HTMLFormElement>(null);
  useFieldsFromUrl(form, { size: values.size, brand: values.brand, minPrice: values.minPrice, maxPrice: values.maxPrice });
  const priceProblem = problems.some((problem) => problem.field === "price");
  const active = activeFilterCount(values);
  // An unknown brand from the URL stays selectable, so the form shows what the page is filtered by.
  const brandOptions = values.brand !== undefined && !brands.includes(values.brand) ? [values.brand, ...brands] : brands;
  const sizeOptions = values.size !== undefined && !sizes.includes(values.size) ? [values.size, ...sizes] : sizes;
  return (
    <details className="filters-panel group mt-6" open={problems.length > 0 || reopened || undefined}>
      <summary className="btn-secondary cursor-pointer list-none [&::-webkit-details-marker]:hidden">
        <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
          <path d="M3 5h14M6 10h8M8.5 15h3" />
        </svg>
        Filters
        {active > 0 && (
          <span className="rounded-full bg-brand-600 px-2 text-xs text-white dark:bg-brand-400 dark:text-slate-950">
            {active}
            <span className="sr-only"> applied</span>
          </span>
        )}
      </summary>
      <Form
        ref={form}
        method="get"
        aria-label="Filters"
        className="mt-3 flex flex-col gap-4 rounded-2xl border border-slate-200 p-4 sm:flex-row sm:flex-wrap sm:items-end lg:mt-0 dark:border-slate-800"
        onPointerDown={selects.onPointerDown}
        onKeyDown={selects.onKeyDown}
        onChange={selects.onChange}
        onBlur={selects.onBlur}
        onSubmit={(event) => {
          event.preventDefault();
          selects.clearPending();
          apply(event.currentTarget);
        }}
      >
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {sizeOptions.length > 0 && (
          <SelectFilter
            name="size"
            label={
              <>
                Size <span className="font-normal text-slate-600 dark:text-slate-400">(in stock)</span>
              </>
            }
            all="All sizes"
            options={sizeOptions}
            value={values.size}
            problem={problems.some((problem) => problem.field === "size")}
            className="sm:w-36"
          />
        )}
        <SelectFilter name="brand" label="Brand" all="All brands" options={brandOptions} value={values.brand} problem={problems.some((problem) => problem.field === "brand")} className="sm:w-56" />
        <fieldset className="min-w-0">
          <legend className="field-label">Price (Rs)</legend>
          <div className="flex items-center gap-2">
            <label htmlFor="filter-min-price" className="text-sm text-slate-600 dark:text-slate-400">
              Min
            </label>
            <input
              id="filter-min-price"
              name="minPrice"
              type="number"
              inputMode="decimal"
              min={0}
              step="0.01"
              defaultValue={values.minPrice ?? ""}
              aria-invalid={priceProblem || undefined}
              aria-describedby={priceProblem ? "filter-problem-price" : undefined}
              className="field-input min-w-0 flex-1 sm:w-28 sm:flex-none"
            />
            <label htmlFor="filter-max-price" className="text-sm text-slate-600 dark:text-slate-400">
              Max
            </label>
            <input
              id="filter-max-price"
              name="maxPrice"
              type="number"
              inputMode="decimal"
              min={0}
              step="0.01"
              defaultValue={values.maxPrice ?? ""}
              aria-invalid={priceProblem || undefined}
              aria-describedby={priceProblem ? "filter-problem-price" : undefined}
              className="field-input min-w-0 flex-1 sm:w-28 sm:flex-none"
            />
          </div>
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-primary">
            Apply
          </button>
          {active > 0 && (
            <AppLink to={clearHref} className="btn-secondary">
              Clear all
            </AppLink>
          )}
        </div>
        {/* A role=alert on a <ul> would take away its list semantics (axe: listitem, aria-allowed-role): the alert wraps
            one line per problem, each with an id the field it concerns is described by. */}
        {problems.length > 0 && (
          <div role="alert" className="field-error basis-full space-y-1">
            {problems.map((problem) => (
              <p key={problem.field} id={`filter-problem-${problem.field}`}>
                {problem.message}
              </p>
            ))}
          </div>
        )}
      </Form>
    </details>
  );
}

interface FiltersNavigationState {
  filtersOpen: boolean;
}

/** One of the filter form's choices (size, brand): a labelled select whose first option clears it. */
function SelectFilter({ name, label, all, options, value, problem, className }: { name: string; label: ReactNode; all: string; options: readonly string[]; value?: string; problem: boolean; className: string }) {
  return (
    <div className={className}>
      <label htmlFor={`filter-${name}`} className="field-label">
        {label}
      </label>
      <select id={`filter-${name}`} name={name} defaultValue={value ?? ""} aria-describedby={problem ? `filter-problem-${name}` : undefined} className="field-input">
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}
