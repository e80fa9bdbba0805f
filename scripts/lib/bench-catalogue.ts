// The bench's catalogue: products generated in SQL, so 100,000 of them go in with a few statements. Shared by
// scripts/bench.ts and the query-plan tests (tests/workers/catalogue-plans.test.ts), which check the plans on a
// catalogue made the same way.

import { CATEGORY_SIZES } from "../../app/lib/sizes";

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
/** A CASE expression that picks list[expr % list.length]: literals only, so no bound parameters at all. */
const pick = (expr: string, list: readonly string[]) =>
  `CASE (${expr}) % ${list.length} ${list.map((item, i) => `WHEN ${i} THEN ${quote(item)}`).join(" ")} END`;

export const CATEGORIES = ["Gents", "Ladies", "Kids", "Accessories"] as const;
// List lengths are coprime, so names, brands and prices don't repeat in step.
export const BRANDS = ["Stride Classics", "Urban Trek", "Lanka Leather", "Ceylon Step", "Monsoon Gear", "Galle Road", "Kandy Craft", "Sigiri Sport", "Ella Peak", "Palmyra", "Coral Bay", "Serendib", "Harbour & Co"];
const ADJECTIVES = ["Metro", "Coastal", "Harbour", "Summit", "Lotus", "Breeze", "Temple", "Lagoon", "Highland", "Spice", "Tea Estate", "Cinnamon", "Marine", "Jungle", "Sunset", "Paddy", "Pearl"];
const TYPES: Record<(typeof CATEGORIES)[number], string[]> = {
  Gents: ["Oxford", "Loafer", "Derby", "Court Sneaker", "Runner", "Chelsea Boot"],
  Ladies: ["Block Heel", "Ballet Flat", "Strappy Sandal", "Wedge", "Mule", "Ankle Boot"],
  Kids: ["School Shoe", "Light-Up Sneaker", "Velcro Trainer", "Rain Boot", "Sandal", "Slip-On"],
  Accessories: ["Shoe Polish Kit", "Gel Insoles", "Waxed Laces", "Ankle Socks", "Shoe Bag", "Suede Brush"],
};
const OPENERS = [
  "Made for long days on Colombo's pavements,",
  "Cut from full-grain leather and stitched by hand,",
  "Light, breathable and quick to dry after a monsoon shower,",
  "A season favourite in a fresh colourway,",
  "Built on a cushioned footbed with a grippy rubber outsole,",
  "Designed in Kandy and finished with care,",
  "Our best seller, refined for this year,",
];
const CLOSERS = [
  "it goes from the office to the weekend without a second thought.",
  "it keeps its shape wear after wear and cleans up with a damp cloth.",
  "it pairs with everything from chinos to a sari.",
  "it comes with a one-year warranty on the stitching and the sole.",
  "it is sized true to fit; order your usual size.",
];

/**
 * Products `from`..`to` (ids chosen here), inserted by one statement a chunk: a recursive CTE counts the ids and
 * every column is an expression of the id, so nothing is bound (D1 allows 100 parameters a statement).
 */
export function insertProducts(from: number, to: number, imageKeys: string[]): string {
  const i = "n.i";
  const category = pick(i, CATEGORIES);
  const type = `CASE ${i} % 4 ${CATEGORIES.map((c, k) => `WHEN ${k} THEN ${pick(`${i} / 4`, TYPES[c])}`).join(" ")} END`;
  const name = `${pick(`${i} / 24`, ADJECTIVES)} || ' ' || ${type} || ' ' || (100 + (${i} * 7919) % 900)`;
  const description = `${pick(i, OPENERS)} || ' this ' || lower(${type}) || ' by ' || ${pick(`${i} * 7`, BRANDS)} || ' ' || ${pick(`${i} / 7`, CLOSERS)}`;
  return `INSERT INTO products (id, name, brand, description, price_cents, category, stock_quantity, release_date, product_available, image_name, image_key, image_type, rating_count, rating_total)
WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})
SELECT ${i}, ${name}, ${pick(`${i} * 7`, BRANDS)}, ${description},
  (10 + (${i} * 104729) % 400) * 10000, ${category}, (${i} * 31) % 50,
  date('2020-01-01', '+' || ((${i} * 7919) % 2190) || ' days'), (${i} % 29) != 0,
  'product-' || ${i} || '.png', ${pick(`${i} - 1`, imageKeys)}, 'image/png', (${i} * 3) % 40, ((${i} * 3) % 40) * (3 + ${i} % 3)
FROM n`;
}

/**
 * The sizes of products `from`..`to`: each category's size set (the demo data's), with a stock that varies by product
 * and size and is 0 for about one size in twelve. The products' stock becomes their sum (the triggers of 0006).
 */
export function insertSizes(from: number, to: number): string {
  const sets = CATEGORIES.flatMap((category) => CATEGORY_SIZES[category].map((label, position) => `('${category}', '${label}', ${position})`)).join(", ");
  // The category too (the triggers of migrations/0017 would otherwise write each size a second time to copy it).
  return `INSERT INTO product_sizes (product_id, label, position, stock_quantity, category)
SELECT p.id, s.column2, s.column3, (p.id * 7 + s.column3 * 13) % 12, p.category FROM products p JOIN (VALUES ${sets}) AS s ON s.column1 = p.category
WHERE p.id BETWEEN ${from} AND ${to}`;
}
