import type { ReactNode } from "react";
import { Form, useLocation, useSubmit } from "react-router";

import { activeFilterCount, type CatalogueFilters } from "~/lib/catalogue-filters";
import { AppLink } from "./AppLink";

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
  problems: string[];
}

/**
 * The filters of a listing: a GET form, so the filters are in the URL and work without JavaScript. On phones it folds
 * behind a "Filters" disclosure (a <details>, so it opens without JavaScript too); on wide screens app.css shows it as
 * a bar, always open. With JavaScript a new size or brand applies at once; prices apply with Apply or Enter, not at every
 * keystroke; and empty fields stay out of the URL (without it the browser sends them empty, which the loaders ignore).
 */
export function Filters({ sizes, brands, values, keep, clearHref, problems }: FiltersProps) {
  const submit = useSubmit();
  // The listing renders the panel anew for each URL (its fields start from the URL's values). A choice made in the open
  // panel says so in the navigation's state, so on a phone the panel stays open for the next choice.
  const reopened = (useLocation().state as FiltersNavigationState | null)?.filtersOpen === true;
  const apply = (form: HTMLFormElement) => submit(compact(form), { method: "get", state: { filtersOpen: form.closest("details")?.open ?? false } satisfies FiltersNavigationState });
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
        method="get"
        aria-label="Filters"
        className="mt-3 flex flex-col gap-4 rounded-2xl border border-slate-200 p-4 sm:flex-row sm:flex-wrap sm:items-end lg:mt-0 dark:border-slate-800"
        onChange={(event) => {
          if (event.target instanceof HTMLSelectElement) apply(event.currentTarget);
        }}
        onSubmit={(event) => {
          event.preventDefault();
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
            className="sm:w-36"
          />
        )}
        <SelectFilter name="brand" label="Brand" all="All brands" options={brandOptions} value={values.brand} className="sm:w-56" />
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
        {problems.length > 0 && (
          <ul role="alert" className="field-error basis-full">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
      </Form>
    </details>
  );
}

interface FiltersNavigationState {
  filtersOpen: boolean;
}

/** One of the filter form's choices (size, brand): a labelled select whose first option clears it. */
function SelectFilter({ name, label, all, options, value, className }: { name: string; label: ReactNode; all: string; options: readonly string[]; value?: string; className: string }) {
  return (
    <div className={className}>
      <label htmlFor={`filter-${name}`} className="field-label">
        {label}
      </label>
      <select id={`filter-${name}`} name={name} defaultValue={value ?? ""} className="field-input">
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
