import type { OrderStatus } from "./constants";
import { formatDateTime, formatLkr } from "./format";
import { nameWithSize } from "./sizes";

// Every e-mail the shop sends, rendered from plain values into a subject, a plain-text part and a simple HTML part.
// Pure functions: no database, no clock, no environment; app/services/outbox.server.ts stores what they return.
// Every value that reaches the HTML goes through escapeHtml; the subject never carries a customer's words.

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface BankDetails {
  name: string;
  branch: string;
  accountName: string;
  accountNumber: string;
}

export interface MailOrderLine {
  productName: string;
  sizeLabel: string;
  quantity: number;
  /** Rupees, as the order views carry them. */
  subtotal: number;
}

export interface OrderMailData {
  /** The order number as shown ("12"). The order's batch renders before the id exists and passes a placeholder. */
  orderNumber: string;
  /** The customer's page of the order (absolute). */
  orderUrl: string;
  customerName: string;
}

export interface OrderPlacedData extends OrderMailData {
  items: MailOrderLine[];
  /** Rupees. */
  totalAmount: number;
  shippingAddress: string;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe inside HTML element content and quoted attribute values. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

/** A one-line value for a header or a list line: no line breaks a customer could use to forge lines. */
function oneLine(value: string): string {
  return value.replace(/[\r\n\t]+/g, " ").trim();
}

/** What each status means to the customer: a short headline and a sentence or two. */
export const STATUS_WORDS: Record<OrderStatus, { headline: string; detail: string }> = {
  PENDING: {
    headline: "We are checking your bank slip",
    detail: "Your order is waiting for us to match your bank transfer with the slip you sent. We will write again as soon as it is confirmed.",
  },
  CONFIRMED: {
    headline: "Your payment is confirmed",
    detail: "We have received your bank transfer and your order is confirmed. We will start packing it shortly.",
  },
  PROCESSING: {
    headline: "We are packing your order",
    detail: "Your shoes are being picked and packed. We will let you know when they are on their way.",
  },
  SHIPPED: {
    headline: "Your order is on its way",
    detail: "Your parcel has left our store and is with the courier. It should reach you in a few days.",
  },
  DELIVERED: {
    headline: "Your order has been delivered",
    detail: "Your parcel has been delivered. We hope you enjoy your new shoes, and a review on the product page helps other shoppers.",
  },
  CANCELLED: {
    headline: "Your order has been cancelled",
    detail: "This order has been cancelled and will not be sent. If you have already paid for it, we will contact you about a refund.",
  },
};

/**
 * A cancellation of an order that has left the store is not "will not be sent": the parcel is with the courier or the
 * customer, so it is a return and a refund.
 */
const CANCELLED_AFTER: Partial<Record<OrderStatus, { headline: string; detail: string }>> = {
  SHIPPED: {
    headline: "Your order has been cancelled",
    detail:
      "This order has been cancelled after it left our store. If the parcel reaches you, please send it back to us; we will contact you about the return and a refund of what you paid.",
  },
  DELIVERED: {
    headline: "Your order has been cancelled",
    detail: "This order has been cancelled after it was delivered. We will contact you about returning the shoes and a refund of what you paid.",
  },
};

/**
 * The words of a move from `previous` to `status`: the new status's own words, except where the move changes what they
 * mean to the customer (a cancellation after dispatch; a cancelled order reopened, which must say it was reopened).
 */
export function statusWords(status: OrderStatus, previous?: OrderStatus): { headline: string; detail: string } {
  if (status === "CANCELLED" && previous) return CANCELLED_AFTER[previous] ?? STATUS_WORDS.CANCELLED;
  if (previous === "CANCELLED" && status !== "CANCELLED") {
    return { headline: "Your order has been reopened", detail: `We have reopened your cancelled order. ${STATUS_WORDS[status].detail}` };
  }
  return STATUS_WORDS[status];
}

const SIGN_OFF = "Thank you for shopping with Stride.";

/**
 * Lets a long unbroken run (a 100-letter name, a URL in an address) wrap anywhere instead of widening the mail past a
 * phone's screen. overflow-wrap:anywhere also lowers a table cell's minimum width; word-break:break-word is the older
 * spelling, for clients that do not know the first. Set on each text block, not only the frame: some clients drop the
 * body's styles.
 */
const WRAP = "overflow-wrap:anywhere;word-break:break-word";

/** The HTML frame every mail shares: a heading, the body, and the sign-off. */
function htmlDocument(title: string, body: string): string {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body style="margin:0;padding:24px;background:#f8fafc;color:#0f172a;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;${WRAP}">`,
    `<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px;${WRAP}">`,
    '<p style="margin:0 0 16px;font-size:20px;font-weight:bold">Stride</p>',
    `<h1 style="margin:0 0 16px;font-size:20px;${WRAP}">${escapeHtml(title)}</h1>`,
    body,
    `<p style="margin:24px 0 0;color:#475569;${WRAP}">${escapeHtml(SIGN_OFF)}</p>`,
    "</div></body></html>",
  ].join("\n");
}

const paragraph = (text: string) => `<p style="margin:0 0 12px;${WRAP}">${escapeHtml(text)}</p>`;
const button = (href: string, label: string) =>
  `<p style="margin:16px 0"><a href="${escapeHtml(href)}" style="display:inline-block;max-width:100%;${WRAP};background:#1d4ed8;color:#ffffff;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:bold">${escapeHtml(label)}</a></p>`;

function bankLines(bank: BankDetails): [string, string][] {
  return [
    ["Bank", bank.name],
    ["Branch", bank.branch],
    ["Account name", bank.accountName],
    ["Account number", bank.accountNumber],
  ];
}

/** The confirmation of a new order: its lines with sizes, the total in LKR, the bank transfer details and its page. */
export function orderPlacedMail(order: OrderPlacedData, bank: BankDetails): RenderedMail {
  const subject = `Stride order #${order.orderNumber}: we have your order`;
  const greeting = `Hello ${oneLine(order.customerName)},`;
  const intro = `Thank you for your order #${order.orderNumber}. We have your bank slip and are checking your payment; we will write again when it is confirmed.`;
  // Said after payment: the customer paid before the order (and its number) existed, so no reference is asked for.
  const checking = "We check your slip against a transfer into this account, and we will confirm your order once we have matched your slip to the transfer.";
  const lines = order.items.map((item) => ({ name: oneLine(nameWithSize(item.productName, item.sizeLabel)), quantity: item.quantity, subtotal: formatLkr(item.subtotal) }));
  const total = formatLkr(order.totalAmount);

  const text = [
    greeting,
    "",
    intro,
    "",
    "Your order",
    ...lines.map((line) => `- ${line.name} x ${line.quantity}: ${line.subtotal}`),
    `Total: ${total}`,
    "",
    "Bank transfer details",
    ...bankLines(bank).map(([label, value]) => `${label}: ${value}`),
    checking,
    "",
    "Delivery address",
    order.shippingAddress.trim(),
    "",
    `See your order: ${order.orderUrl}`,
    "",
    SIGN_OFF,
    "",
  ].join("\n");

  const cell = "padding:6px 0;border-bottom:1px solid #e2e8f0";
  const html = htmlDocument(
    `We have your order #${order.orderNumber}`,
    [
      paragraph(greeting),
      paragraph(intro),
      '<h2 style="margin:20px 0 8px;font-size:16px">Your order</h2>',
      '<table role="presentation" style="width:100%;border-collapse:collapse">',
      ...lines.map(
        (line) =>
          `<tr><td style="${cell};${WRAP}">${escapeHtml(line.name)} &times; ${escapeHtml(line.quantity)}</td><td style="${cell};text-align:right;white-space:nowrap">${escapeHtml(line.subtotal)}</td></tr>`,
      ),
      `<tr><td style="padding:8px 0;font-weight:bold">Total</td><td style="padding:8px 0;font-weight:bold;text-align:right;white-space:nowrap">${escapeHtml(total)}</td></tr>`,
      "</table>",
      '<h2 style="margin:20px 0 8px;font-size:16px">Bank transfer details</h2>',
      '<table role="presentation" style="border-collapse:collapse;margin:0 0 8px">',
      ...bankLines(bank).map(([label, value]) => `<tr><td style="padding:2px 16px 2px 0;color:#475569">${escapeHtml(label)}</td><td style="padding:2px 0;${WRAP}">${escapeHtml(value)}</td></tr>`),
      "</table>",
      paragraph(checking),
      '<h2 style="margin:20px 0 8px;font-size:16px">Delivery address</h2>',
      `<p style="margin:0 0 12px;white-space:pre-line;${WRAP}">${escapeHtml(order.shippingAddress.trim())}</p>`,
      button(order.orderUrl, "See your order"),
    ].join("\n"),
  );
  return { subject, text, html };
}

/** A status change, in the customer's words: those of the move from `previous` (see statusWords). */
export function orderStatusMail(order: OrderMailData, status: OrderStatus, previous?: OrderStatus): RenderedMail {
  const words = statusWords(status, previous);
  const subject = `Stride order #${order.orderNumber}: ${words.headline.toLowerCase()}`;
  const greeting = `Hello ${oneLine(order.customerName)},`;
  const text = [greeting, "", `${words.headline}.`, "", words.detail, "", `See your order #${order.orderNumber}: ${order.orderUrl}`, "", SIGN_OFF, ""].join("\n");
  const html = htmlDocument(`Order #${order.orderNumber}: ${words.headline}`, [paragraph(greeting), paragraph(words.detail), button(order.orderUrl, `See your order #${order.orderNumber}`)].join("\n"));
  return { subject, text, html };
}

export interface PasswordResetData {
  name: string;
  /** The one-time link, token included (absolute). */
  resetUrl: string;
  validMinutes: number;
}

export function passwordResetMail(data: PasswordResetData): RenderedMail {
  const subject = "Reset your Stride password";
  const greeting = `Hello ${oneLine(data.name)},`;
  const intro = `Someone asked to reset the password of your Stride account. The link below works once, for ${data.validMinutes} minutes.`;
  const ignore = "If it was not you, ignore this e-mail: your password stays as it is.";
  const text = [greeting, "", intro, "", `Reset your password: ${data.resetUrl}`, "", ignore, "", SIGN_OFF, ""].join("\n");
  const html = htmlDocument("Reset your password", [paragraph(greeting), paragraph(intro), button(data.resetUrl, "Reset your password"), paragraph(ignore)].join("\n"));
  return { subject, text, html };
}

/**
 * An e-mail address as a notice to the old address shows the new one: enough for the owner to know it is not theirs,
 * not the whole address to whoever reads the old mailbox now. The first two characters of the local part (one when it
 * is that short or shorter), then "***", then the domain: "nimal@example.com" -> "ni***@example.com".
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return `${email.slice(0, 1)}***`;
  const local = email.slice(0, at);
  return `${local.slice(0, local.length > 2 ? 2 : 1)}***${email.slice(at)}`;
}

export interface AccountChangedData {
  /** The account's name as it was before the change: the owner's words, not whoever made the change. */
  name: string;
  /** The new address when the change moved the account to another e-mail (this mail then goes to the old one). */
  newEmail: string | null;
  passwordChanged: boolean;
  /** When the change was saved (epoch ms), shown in the shop's time zone. */
  changedAt: number;
  /** The shop's origin, without a trailing slash. */
  siteUrl: string;
}

const IF_YOU = "If you made this change, there is nothing more to do.";

/**
 * The notice that a profile save changed the account's password or its e-mail, so the owner hears of a change made at
 * a browser they left logged in (the profile form does not ask for the current password). A new e-mail: to the old
 * address, which can no longer log in nor ask for a reset link, so it says to contact the shop (and, when the password
 * changed too, says both). A new password alone: to the account's address, which can still ask for a reset link.
 */
export function accountChangedMail(data: AccountChangedData): RenderedMail {
  const greeting = `Hello ${oneLine(data.name)},`;
  const when = `${formatDateTime(data.changedAt)} (Sri Lanka time)`;
  const loggedOut = "Every other device that was logged in to your account has been logged out.";
  const forgotUrl = `${data.siteUrl}/forgot-password`;

  let subject: string;
  let title: string;
  let said: string[];
  let notYou: string;
  if (data.newEmail !== null) {
    const masked = maskEmail(oneLine(data.newEmail));
    subject = data.passwordChanged ? "Your Stride e-mail and password were changed" : "Your Stride account's e-mail was changed";
    title = data.passwordChanged ? "Your e-mail and password were changed" : "Your account's e-mail was changed";
    said = [
      `The e-mail address of your Stride account was changed on ${when}, from this address to ${masked}.` +
        (data.passwordChanged ? " Its password was changed at the same time." : ""),
      ...(data.passwordChanged ? [loggedOut] : []),
      "This address can no longer log in to the account, nor ask for a password reset link.",
    ];
    notYou = "If it was not you, contact us right away by replying to this e-mail: this address can no longer ask for a reset link, so we will help you get your account back.";
  } else {
    subject = "Your Stride password was changed";
    title = "Your password was changed";
    said = [`The password of your Stride account was changed on ${when}.`, loggedOut];
    notYou = `If it was not you, choose a new password at once with "Forgot password?" at ${forgotUrl} (that logs out every device again), and contact us by replying to this e-mail.`;
  }

  const text = [greeting, "", ...said.flatMap((line) => [line, ""]), IF_YOU, "", notYou, "", SIGN_OFF, ""].join("\n");
  const html = htmlDocument(
    title,
    [
      paragraph(greeting),
      ...said.map(paragraph),
      paragraph(IF_YOU),
      paragraph(notYou),
      ...(data.newEmail === null ? [button(forgotUrl, "Forgot password?")] : []),
    ].join("\n"),
  );
  return { subject, text, html };
}

/**
 * A reset mail once it has left (or can never leave): the link's token replaced, so the outbox that admins read holds
 * no working link. Only the hash of a token is kept anywhere else.
 */
export function redactResetToken(body: string): string {
  return body.replace(/([?&]token=)[A-Za-z0-9_-]+/g, "$1[removed]");
}
