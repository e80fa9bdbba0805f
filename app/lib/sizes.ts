import type { Category } from "./constants";

// Sizes as a shopper and an admin see them: shared by the screens, the schemas, the services and the demo data.

/** The one size of a product sold without a size choice (accessories, and every product that existed before sizes). */
export const ONE_SIZE = "One size";
export const SIZE_LABEL_MAX = 20;
export const SIZES_MAX = 30;
/** Under this many pairs left, a chosen size says "Only N left". */
export const FEW_LEFT = 5;
/** The product page's and the cart's words for the pairs left of a size. */
export const onlyLeft = (stock: number): string => `Only ${stock} left`;
/** The dashboard lists sizes with this many units or fewer (the partial index product_sizes_low_stock_idx says 3 too). */
export const LOW_STOCK = 3;
export const SELECT_A_SIZE = "Please select a size";
export const UNKNOWN_SIZE = "That size is not one of this product's sizes";
/**
 * The screens' words for UNKNOWN_SIZE (the API keeps API.md's): a shopper's page only offers the product's own sizes,
 * so a size refused as not one of them was removed since the page was shown. Named when the page knows which.
 */
export const sizeNoLongerSold = (label?: string): string => `${label ?? "That size"} is no longer sold. Please choose another size.`;
/** Refusals of an add that are about the size: the product page's size picker says them under the sizes. */
export const SIZE_REFUSALS: readonly string[] = [SELECT_A_SIZE, UNKNOWN_SIZE];
/**
 * The product page's size picker (its form's id): a refused add without JavaScript comes back to this fragment, so
 * the page opens at the sizes and their message rather than at its top.
 */
export const sizePickerId = (productId: number): string => `size-picker-${productId}`;

export interface SizeView {
  id: number;
  label: string;
  stockQuantity: number;
}

/** A line's name with its size, where the product has a choice of sizes: "Trail Runner (EU 42)". */
export const nameWithSize = (productName: string, sizeLabel: string): string => (sizeLabel === ONE_SIZE ? productName : `${productName} (${sizeLabel})`);

/** The size picker shows only when there is a choice to make. */
export const hasSizeChoice = (sizes: readonly { label: string }[]): boolean => sizes.length > 1 || (sizes.length === 1 && sizes[0].label !== ONE_SIZE);

const euRange = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `EU ${from + i}`);

/** The sizes a new product of each category starts with, and the demo data's. */
export const CATEGORY_SIZES: Record<Category, string[]> = {
  Gents: euRange(39, 46),
  Ladies: euRange(35, 42),
  Kids: euRange(24, 35),
  Accessories: [ONE_SIZE],
};

/**
 * The sizes the grid's size filter offers: the category's, or with no category every shoe size, smallest first, each
 * once (Ladies and Kids share EU 35; Gents and Ladies EU 39 to 42). None for a category sold in one size.
 */
export function filterSizes(category: Category | undefined): string[] {
  const labels = category ? CATEGORY_SIZES[category] : [...new Set(Object.values(CATEGORY_SIZES).flat())];
  return labels.filter((label) => label !== ONE_SIZE).sort((a, b) => euNumber(a) - euNumber(b));
}
const euNumber = (label: string) => Number(label.replace(/^EU /, ""));

/** A size guide row: EU size, UK, US and the foot's length in centimetres. */
export interface SizeGuideRow {
  eu: number;
  uk: string;
  us: string;
  footCm: string;
}

// Common brand charts (EU to UK/US and foot length); a shop checks its own brands' charts before printing them.
const GENTS: SizeGuideRow[] = [
  { eu: 39, uk: "6", us: "7", footCm: "24.6" },
  { eu: 40, uk: "6.5", us: "7.5", footCm: "25.0" },
  { eu: 41, uk: "7.5", us: "8.5", footCm: "25.7" },
  { eu: 42, uk: "8", us: "9", footCm: "26.4" },
  { eu: 43, uk: "9", us: "10", footCm: "27.1" },
  { eu: 44, uk: "9.5", us: "10.5", footCm: "27.8" },
  { eu: 45, uk: "10.5", us: "11.5", footCm: "28.5" },
  { eu: 46, uk: "11", us: "12", footCm: "29.2" },
];
const LADIES: SizeGuideRow[] = [
  { eu: 35, uk: "2.5", us: "5", footCm: "22.1" },
  { eu: 36, uk: "3.5", us: "6", footCm: "22.8" },
  { eu: 37, uk: "4", us: "6.5", footCm: "23.5" },
  { eu: 38, uk: "5", us: "7.5", footCm: "24.1" },
  { eu: 39, uk: "6", us: "8.5", footCm: "24.8" },
  { eu: 40, uk: "6.5", us: "9", footCm: "25.4" },
  { eu: 41, uk: "7.5", us: "10", footCm: "26.0" },
  { eu: 42, uk: "8", us: "10.5", footCm: "26.7" },
];
// US children's sizes run to 13.5 (C, little kids), then start again at 1 (Y, big kids).
const KIDS: SizeGuideRow[] = [
  { eu: 24, uk: "7", us: "7.5C", footCm: "14.6" },
  { eu: 25, uk: "8", us: "8.5C", footCm: "15.2" },
  { eu: 26, uk: "8.5", us: "9C", footCm: "15.9" },
  { eu: 27, uk: "9.5", us: "10C", footCm: "16.5" },
  { eu: 28, uk: "10", us: "11C", footCm: "17.1" },
  { eu: 29, uk: "11", us: "11.5C", footCm: "17.8" },
  { eu: 30, uk: "11.5", us: "12.5C", footCm: "18.4" },
  { eu: 31, uk: "12.5", us: "13C", footCm: "19.1" },
  { eu: 32, uk: "13", us: "1Y", footCm: "19.7" },
  { eu: 33, uk: "1", us: "2Y", footCm: "20.3" },
  { eu: 34, uk: "2", us: "2.5Y", footCm: "21.0" },
  { eu: 35, uk: "2.5", us: "3.5Y", footCm: "21.6" },
];
export const SIZE_GUIDES: Partial<Record<Category, SizeGuideRow[]>> = { Gents: GENTS, Ladies: LADIES, Kids: KIDS };
