// Values shared by the data model, the schemas and the screens. The database CHECK constraints are built from them.
export const CATEGORIES = ["Gents", "Ladies", "Kids", "Accessories"] as const;
export const ROLES = ["ROLE_ADMIN", "ROLE_CUSTOMER"] as const;
export const ORDER_STATUSES = ["PENDING", "CONFIRMED", "PROCESSING", "SHIPPED", "DELIVERED", "CANCELLED"] as const;
/** Why the shop took a line out of a customer's cart (cart_lines_gone): its size removed, or its product deleted. */
export const CART_LINE_GONE_REASONS = ["SIZE_REMOVED", "PRODUCT_DELETED"] as const;
export type CartLineGoneReason = (typeof CART_LINE_GONE_REASONS)[number];

/**
 * What the admin's status form says, in the browser and from the server alike. A cancellation puts back only the
 * pairs of sizes still sold (a removed size, or a deleted product's, has nowhere to take them): the question promises
 * no more, and names the lines it already knows of (cancelQuestion in app/lib/order-stock.ts).
 */
export const ORDER_STATUS_MESSAGES = {
  cancelConfirmation: "Cancel this order? Its stock will be put back, for the sizes still sold.",
  failed: "Failed to update order status",
} as const;

/**
 * What an outbox row is (email_outbox.kind) and where it stands (email_outbox.state). ACCOUNT_CHANGED: the notice that a
 * profile save changed the account's password or e-mail. email_outbox's CHECK on kind is the table's own, so a new kind
 * is a migration that rebuilds the table (drizzle-kit writes it).
 */
export const MAIL_KINDS = ["ORDER_PLACED", "ORDER_STATUS", "PASSWORD_RESET", "ACCOUNT_CHANGED"] as const;
export const MAIL_STATES = ["queued", "sent", "kept", "failed"] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export type MailState = (typeof MAIL_STATES)[number];

export type Category = (typeof CATEGORIES)[number];
export type Role = (typeof ROLES)[number];
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The product grid's orders (?sort=). */
export const SORTS = ["newest", "price-asc", "price-desc", "name"] as const;
export type Sort = (typeof SORTS)[number];

export const PHONE_DIGITS = 10;
/** The longest search (q) the back office's lists take. */
export const ADMIN_SEARCH_MAX = 100;
/** A visitor's cart is a cookie: each line holds a product, a size and a quantity, and 30 stay well inside its 4 KB. */
export const GUEST_CART_MAX_LINES = 30;
export const PASSWORD_MIN = 6;
/**
 * The longest e-mail address (RFC 5321's 254 characters): checked before anything is stored or looked up, so no request
 * can make the shop keep a long string (a forgot-password or login attempt is counted under its e-mail).
 */
export const EMAIL_MAX = 254;

export const THEMES = ["light-theme", "dark-theme"] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = "light-theme";

export function isTheme(value: unknown): value is Theme {
  return THEMES.includes(value as Theme);
}
