// The bench's back office: customers and their orders generated in SQL, so 50,000 users and 100,000 orders go in with
// a few statements. Shared by scripts/bench.ts and the query-plan tests (tests/workers/backoffice-plans.test.ts).
// Every column is an expression of the row's id: nothing is bound (D1 allows 100 parameters a statement).

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
const pick = (expr: string, list: readonly string[]) =>
  `CASE (${expr}) % ${list.length} ${list.map((item, i) => `WHEN ${i} THEN ${quote(item)}`).join(" ")} END`;

// Lengths are coprime, so first and last names do not repeat in step.
export const FIRST_NAMES = ["Nimal", "Kamala", "Sunil", "Dilani", "Ruwan", "Chathuri", "Asanka", "Ishara", "Mahesh", "Tharushi", "Kasun", "Nadeesha", "Pradeep", "Sanduni", "Lahiru", "Hiruni", "Dinesh"];
export const LAST_NAMES = ["Perera", "Fernando", "de Silva", "Jayasinghe", "Bandara", "Wickramasinghe", "Gunawardena", "Rajapaksa", "Herath", "Dissanayake", "Kumara", "Senanayake", "Ranasinghe", "Weerasinghe", "Ekanayake", "Abeysekera", "Samarasinghe", "Liyanage", "Karunaratne"];

/** The instant the generated history starts, and the time between two generated users or orders. */
const EPOCH = Date.UTC(2024, 0, 1);
const USER_STEP_MS = 20 * 60 * 1000;
const ORDER_STEP_MS = 10 * 60 * 1000;

/** Mostly delivered, as a shop's history is: the weights of each status in 20 orders. */
const STATUS_MIX = [
  ...Array(2).fill("PENDING"),
  ...Array(2).fill("CONFIRMED"),
  ...Array(2).fill("PROCESSING"),
  ...Array(3).fill("SHIPPED"),
  ...Array(9).fill("DELIVERED"),
  ...Array(2).fill("CANCELLED"),
] as string[];

const first = (i: string) => pick(i, FIRST_NAMES);
const last = (i: string) => pick(`${i} / ${FIRST_NAMES.length}`, LAST_NAMES);

/** The e-mail generated for user `id`: bench and tests search by it. */
export function benchUserEmail(id: number): string {
  const firstName = FIRST_NAMES[id % FIRST_NAMES.length].toLowerCase();
  const lastName = LAST_NAMES[Math.floor(id / FIRST_NAMES.length) % LAST_NAMES.length].toLowerCase().replace(/ /g, "");
  return `${firstName}.${lastName}.${id}@example.lk`;
}

/** Customers `from`..`to` (ids chosen here), who cannot log in (their hash is no hash). */
export function insertUsers(from: number, to: number): string {
  const i = "n.i";
  return `INSERT INTO users (id, name, email, phone, address, password_hash, role, created_at)
WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})
SELECT ${i}, ${first(i)} || ' ' || ${last(i)},
  lower(${first(i)}) || '.' || replace(lower(${last(i)}), ' ', '') || '.' || ${i} || '@example.lk',
  '07' || printf('%08d', (${i} * 7919 * 13) % 100000000), ${i} || ' Galle Road, Colombo ' || printf('%02d', 1 + ${i} % 15),
  'bench-no-login', 'ROLE_CUSTOMER', ${EPOCH} + ${i} * ${USER_STEP_MS}
FROM n`;
}

/**
 * Orders `from`..`to` of customers 1..`customers`, newest last (created ten minutes apart), each copying its
 * customer's name, e-mail and phone (one in five with the phone written with spaces). Totals are filled in by
 * orderTotals once the lines are in. The status history's first row comes from the trigger of migrations/0005.
 */
export function insertOrders(from: number, to: number, customers: number): string {
  const i = "n.i";
  return `INSERT INTO orders (id, user_id, customer_name, customer_email, customer_phone, shipping_address, total_cents, status, created_at)
WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})
SELECT ${i}, u.id, u.name, u.email,
  CASE ${i} % 5 WHEN 0 THEN substr(u.phone, 1, 3) || ' ' || substr(u.phone, 4, 3) || ' ' || substr(u.phone, 7) ELSE u.phone END,
  u.address, 0, ${pick(`${i} * 7`, STATUS_MIX)}, ${EPOCH} + ${i} * ${ORDER_STEP_MS} + (${i} * 37) % 1000
FROM n JOIN users u ON u.id = 1 + (${i} * 7919) % ${customers}`;
}

/** One to three lines for each of orders `from`..`to`, from products 1..`products`. */
export function insertOrderLines(from: number, to: number, products: number): string {
  return `INSERT INTO order_items (order_id, product_id, product_name, size_label, unit_price_cents, quantity)
SELECT o.id, p.id, p.name, CASE p.category WHEN 'Accessories' THEN 'One size' ELSE 'EU ' || (38 + (o.id + k.column1) % 7) END,
  p.price_cents, 1 + (o.id + k.column1) % 2
FROM orders o JOIN (VALUES (0), (1), (2)) AS k ON k.column1 <= o.id % 3
JOIN products p ON p.id = 1 + (o.id * 31 + k.column1 * 17) % ${products}
WHERE o.id BETWEEN ${from} AND ${to}`;
}

export function orderTotals(from: number, to: number): string {
  return `UPDATE orders SET total_cents = (SELECT coalesce(sum(i.unit_price_cents * i.quantity), 0) FROM order_items i WHERE i.order_id = orders.id)
WHERE id BETWEEN ${from} AND ${to}`;
}

/** Every statement for `users` customers and `orders` orders over products 1..`products`, 10,000 rows a statement. */
export function backOfficeStatements(users: number, orders: number, products: number): string[] {
  const statements: string[] = [];
  for (let start = 1; start <= users; start += 10_000) statements.push(insertUsers(start, Math.min(users, start + 9_999)));
  for (let start = 1; start <= orders; start += 10_000) {
    const end = Math.min(orders, start + 9_999);
    statements.push(insertOrders(start, end, users), insertOrderLines(start, end, products), orderTotals(start, end));
  }
  return statements;
}
