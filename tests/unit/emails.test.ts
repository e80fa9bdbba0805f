import { describe, expect, it } from "vitest";

import { ORDER_STATUSES } from "~/lib/constants";
import {
  accountChangedMail,
  escapeHtml,
  maskEmail,
  orderPlacedMail,
  orderStatusMail,
  passwordResetMail,
  redactResetToken,
  STATUS_WORDS,
  statusWords,
  type BankDetails,
} from "~/lib/emails.server";

const bank: BankDetails = { name: "Commercial Bank", branch: "Colombo 03", accountName: "Stride Footwear", accountNumber: "8001 2345 6789" };

const placed = {
  orderNumber: "42",
  orderUrl: "https://stride.lk/orders/42",
  customerName: "Nimal Perera",
  items: [
    { productName: "Harbour Runner", sizeLabel: "EU 42", quantity: 2, subtotal: 25000 },
    { productName: "Leather Belt", sizeLabel: "One size", quantity: 1, subtotal: 3499.5 },
  ],
  totalAmount: 28499.5,
  shippingAddress: "12 Galle Road\nColombo 03",
};

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and quoted attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;");
    expect(escapeHtml(12)).toBe("12");
  });
});

describe("orderPlacedMail", () => {
  const mail = orderPlacedMail(placed, bank);

  it("names the order in the subject", () => {
    expect(mail.subject).toBe("Stride order #42: we have your order");
  });

  it("lists the items with their sizes (none for one size), quantities and subtotals, and the total in LKR", () => {
    expect(mail.text).toContain("- Harbour Runner (EU 42) x 2: LKR 25,000.00\n- Leather Belt x 1: LKR 3,499.50\nTotal: LKR 28,499.50");
    expect(mail.html).toContain("Harbour Runner (EU 42) &times; 2");
    expect(mail.html).toContain("LKR 28,499.50");
  });

  it("gives the bank transfer details, the address and the order's link in both parts", () => {
    for (const line of ["Bank: Commercial Bank", "Branch: Colombo 03", "Account name: Stride Footwear", "Account number: 8001 2345 6789", "12 Galle Road\nColombo 03"]) {
      expect(mail.text).toContain(line);
    }
    expect(mail.text).toContain("See your order: https://stride.lk/orders/42");
    expect(mail.html).toContain('href="https://stride.lk/orders/42"');
    expect(mail.html).toContain("8001 2345 6789");
  });

  it("reads right after payment: the slip is checked against the account, no reference for a transfer already made", () => {
    // The customer paid and uploaded the slip at checkout, before the order (and its number) existed.
    const checking = "We check your slip against a transfer into this account, and we will confirm your order once we have matched your slip to the transfer.";
    expect(mail.text).toContain(`Account number: 8001 2345 6789\n${checking}\n`);
    expect(mail.html).toContain(checking);
    for (const part of [mail.text, mail.html]) {
      expect(part).not.toMatch(/reference/i);
      expect(part).toContain("Bank transfer details");
    }
  });

  it("lets long unbroken text wrap in every text block of the HTML (a one-word name, a URL in the address)", () => {
    const long = orderPlacedMail({ ...placed, customerName: "N".repeat(100), shippingAddress: `https://maps.example.com/${"x".repeat(200)}` }, bank);
    const wrap = "overflow-wrap:anywhere;word-break:break-word";
    // The frame, the greeting, the item lines, the bank values and the address each carry it.
    expect(long.html).toMatch(new RegExp(`<body style="[^"]*${wrap}`));
    expect(long.html).toMatch(new RegExp(`<p style="[^"]*${wrap}[^"]*">Hello N{100},</p>`));
    expect(long.html).toMatch(new RegExp(`<p style="[^"]*white-space:pre-line;${wrap}">https://maps`));
    expect(long.html).toMatch(new RegExp(`<td style="[^"]*${wrap}">Harbour Runner`));
    expect(long.html).toMatch(new RegExp(`<td style="[^"]*${wrap}">8001 2345 6789</td>`));
    const status = orderStatusMail({ orderNumber: "7", orderUrl: "https://stride.lk/orders/7", customerName: "N".repeat(100) }, "SHIPPED");
    expect(status.html).toMatch(new RegExp(`<p style="[^"]*${wrap}[^"]*">Hello N{100},</p>`));
  });

  it("escapes every value in the HTML and keeps customers' line breaks out of single-line places", () => {
    const hostile = orderPlacedMail(
      {
        ...placed,
        customerName: `Eve\r\nBcc: all@example.com <script>`,
        items: [{ productName: `<img src=x onerror=alert(1)>`, sizeLabel: `EU "42"`, quantity: 1, subtotal: 1 }],
        shippingAddress: `</p><a href="javascript:alert(1)">x</a>`,
        orderUrl: `https://stride.lk/orders/42?a="b"&c`,
      },
      { ...bank, accountName: "<b>Stride</b>" },
    );
    expect(hostile.html).not.toMatch(/<script|<img|<b>|<\/p><a/);
    expect(hostile.html).toContain("Hello Eve Bcc: all@example.com &lt;script&gt;,");
    expect(hostile.html).toContain("&lt;img src=x onerror=alert(1)&gt; (EU &quot;42&quot;)");
    expect(hostile.html).toContain("&lt;/p&gt;&lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;");
    expect(hostile.html).toContain('href="https://stride.lk/orders/42?a=&quot;b&quot;&amp;c"');
    expect(hostile.html).toContain("&lt;b&gt;Stride&lt;/b&gt;");
    expect(hostile.text).toContain("Hello Eve Bcc: all@example.com <script>,\n");
    expect(hostile.subject).not.toMatch(/[\r\n]/);
  });
});

describe("orderStatusMail", () => {
  const order = { orderNumber: "7", orderUrl: "https://stride.lk/orders/7", customerName: "Nimal" };

  it("says each status in the customer's words", () => {
    expect(orderStatusMail(order, "PENDING").text).toContain("We are checking your bank slip.");
    expect(orderStatusMail(order, "CONFIRMED").subject).toBe("Stride order #7: your payment is confirmed");
    expect(orderStatusMail(order, "SHIPPED").subject).toBe("Stride order #7: your order is on its way");
    expect(orderStatusMail(order, "CANCELLED").text).toContain("If you have already paid for it, we will contact you about a refund.");
  });

  it("a cancellation after the parcel left speaks of a return and a refund, not of an order that will not be sent", () => {
    for (const previous of ["SHIPPED", "DELIVERED"] as const) {
      const mail = orderStatusMail(order, "CANCELLED", previous);
      expect(mail.subject).toBe("Stride order #7: your order has been cancelled");
      for (const part of [mail.text, mail.html]) {
        expect(part).not.toContain("will not be sent");
        expect(part).toMatch(/return/);
        expect(part).toMatch(/refund of what you paid/);
      }
    }
    expect(orderStatusMail(order, "CANCELLED", "DELIVERED").text).toContain("This order has been cancelled after it was delivered.");
    expect(orderStatusMail(order, "CANCELLED", "SHIPPED").text).toContain("If the parcel reaches you, please send it back to us");
  });

  it("a cancelled order reopened says so, then what its new status means", () => {
    const mail = orderStatusMail(order, "PENDING", "CANCELLED");
    expect(mail.subject).toBe("Stride order #7: your order has been reopened");
    const detail = `We have reopened your cancelled order. ${STATUS_WORDS.PENDING.detail}`;
    expect(mail.text).toContain(`Your order has been reopened.\n\n${detail}`);
    expect(mail.html).toContain("Order #7: Your order has been reopened");
    expect(mail.html).toContain(escapeHtml(detail));
    for (const status of ORDER_STATUSES.filter((status) => status !== "CANCELLED")) {
      expect(orderStatusMail(order, status, "CANCELLED").text).toContain(`We have reopened your cancelled order. ${STATUS_WORDS[status].detail}`);
    }
  });

  it("every other move keeps the new status's own words", () => {
    for (const previous of ORDER_STATUSES) {
      for (const status of ORDER_STATUSES) {
        if (previous === status || previous === "CANCELLED" || (status === "CANCELLED" && (previous === "SHIPPED" || previous === "DELIVERED"))) continue;
        expect(statusWords(status, previous), `${previous} -> ${status}`).toEqual(STATUS_WORDS[status]);
        expect(orderStatusMail(order, status, previous)).toEqual(orderStatusMail(order, status));
      }
    }
    expect(orderStatusMail(order, "CANCELLED", "PENDING").text).toContain("This order has been cancelled and will not be sent.");
  });

  it("escapes the customer's name in every move's HTML", () => {
    const hostile = { ...order, customerName: `<img src=x onerror=alert(1)>` };
    for (const [status, previous] of [["CANCELLED", "DELIVERED"], ["PENDING", "CANCELLED"]] as const) {
      const mail = orderStatusMail(hostile, status, previous);
      expect(mail.html).not.toContain("<img");
      expect(mail.html).toContain("Hello &lt;img src=x onerror=alert(1)&gt;,");
    }
  });

  it("has words for every status the shop has, and never the status code itself", () => {
    for (const status of ORDER_STATUSES) {
      for (const previous of ORDER_STATUSES) {
        if (previous === status) continue;
        const moved = orderStatusMail(order, status, previous);
        for (const code of ORDER_STATUSES) expect(moved.text, `${previous} -> ${status}`).not.toContain(code);
      }
      const mail = orderStatusMail(order, status);
      expect(STATUS_WORDS[status].headline.length).toBeGreaterThan(0);
      expect(mail.text).toContain(STATUS_WORDS[status].detail);
      expect(mail.text).not.toContain(status);
      expect(mail.html).toContain('href="https://stride.lk/orders/7"');
    }
  });
});

describe("passwordResetMail and redactResetToken", () => {
  const url = "https://stride.lk/reset-password?token=abc_DEF-123";
  const mail = passwordResetMail({ name: "Nimal <N>", resetUrl: url, validMinutes: 30 });

  it("holds the link and how long it works", () => {
    expect(mail.subject).toBe("Reset your Stride password");
    expect(mail.text).toContain(`Reset your password: ${url}`);
    expect(mail.text).toContain("for 30 minutes");
    expect(mail.html).toContain(`href="${url}"`);
    expect(mail.html).toContain("Hello Nimal &lt;N&gt;,");
  });

  it("redaction removes the token from both parts and leaves the rest", () => {
    const text = redactResetToken(mail.text);
    const html = redactResetToken(mail.html);
    expect(text).not.toContain("abc_DEF-123");
    expect(html).not.toContain("abc_DEF-123");
    expect(text).toContain("https://stride.lk/reset-password?token=[removed]");
    expect(redactResetToken("no link here")).toBe("no link here");
  });
});

describe("maskEmail", () => {
  it("keeps two characters of the local part (one of a short one) and the domain", () => {
    expect(maskEmail("nimal.perera@example.com")).toBe("ni***@example.com");
    expect(maskEmail("nim@example.com")).toBe("ni***@example.com");
    expect(maskEmail("ni@example.com")).toBe("n***@example.com");
    expect(maskEmail("n@example.com")).toBe("n***@example.com");
    expect(maskEmail("no-at-sign")).toBe("n***");
  });
});

describe("accountChangedMail", () => {
  // 2026-11-22 04:01 UTC is 9:31 AM in Colombo (UTC+5:30).
  const base = { name: "Nimal Perera", changedAt: Date.UTC(2026, 10, 22, 4, 1), siteUrl: "https://stride.lk" };
  const wrap = "overflow-wrap:anywhere;word-break:break-word";

  it("a new password: says when, that other devices were logged out, and to use 'Forgot password?' and contact the shop", () => {
    const mail = accountChangedMail({ ...base, newEmail: null, passwordChanged: true });
    expect(mail.subject).toBe("Your Stride password was changed");
    expect(mail.text).toBe(
      [
        "Hello Nimal Perera,",
        "",
        "The password of your Stride account was changed on Nov 22, 2026, 9:31 AM (Sri Lanka time).",
        "",
        "Every other device that was logged in to your account has been logged out.",
        "",
        "If you made this change, there is nothing more to do.",
        "",
        'If it was not you, choose a new password at once with "Forgot password?" at https://stride.lk/forgot-password (that logs out every device again), and contact us by replying to this e-mail.',
        "",
        "Thank you for shopping with Stride.",
        "",
      ].join("\n"),
    );
    expect(mail.html).toContain("<title>Your password was changed</title>");
    expect(mail.html).toContain('href="https://stride.lk/forgot-password"');
    expect(mail.html).toContain("Nov 22, 2026, 9:31 AM (Sri Lanka time)");
  });

  it("a new e-mail: to the old address, the new one masked, and to contact the shop (no reset link can help)", () => {
    const mail = accountChangedMail({ ...base, newEmail: "nimal.new@example.com", passwordChanged: false });
    expect(mail.subject).toBe("Your Stride account's e-mail was changed");
    expect(mail.text).toContain("The e-mail address of your Stride account was changed on Nov 22, 2026, 9:31 AM (Sri Lanka time), from this address to ni***@example.com.\n");
    expect(mail.text).toContain("This address can no longer log in to the account, nor ask for a password reset link.");
    expect(mail.text).toContain("If it was not you, contact us right away by replying to this e-mail: this address can no longer ask for a reset link");
    for (const part of [mail.text, mail.html]) {
      expect(part).not.toContain("nimal.new");
      expect(part).not.toMatch(/password was changed|logged out|forgot-password/);
    }
  });

  it("both at once: one mail that says both", () => {
    const mail = accountChangedMail({ ...base, newEmail: "nimal.new@example.com", passwordChanged: true });
    expect(mail.subject).toBe("Your Stride e-mail and password were changed");
    expect(mail.text).toContain("from this address to ni***@example.com. Its password was changed at the same time.\n");
    expect(mail.text).toContain("Every other device that was logged in to your account has been logged out.");
    expect(mail.html).toContain("<title>Your e-mail and password were changed</title>");
  });

  it("escapes every value in the HTML, keeps line breaks out of the greeting, and lets long text wrap", () => {
    const mail = accountChangedMail({
      ...base,
      name: `Eve\r\n<script>alert("x")</script>${"N".repeat(100)}`,
      newEmail: `"<img src=x>"@${"d".repeat(120)}.example.com`,
      passwordChanged: true,
      siteUrl: `https://stride.lk/"a"&b`,
    });
    expect(mail.html).not.toMatch(/<script|<img/);
    expect(mail.html).toMatch(new RegExp(`<p style="[^"]*${wrap}[^"]*">Hello Eve &lt;script&gt;alert\\(&quot;x&quot;\\)&lt;/script&gt;N{100},</p>`));
    expect(mail.html).toMatch(new RegExp(`<p style="[^"]*${wrap}[^"]*">The e-mail address [^<]*&quot;&lt;\\*\\*\\*@d{120}\\.example\\.com\\.`));
    expect(mail.text).toMatch(/^Hello Eve <script>/);
    expect(mail.subject).not.toMatch(/Eve|script|img/);
    const password = accountChangedMail({ ...base, newEmail: null, passwordChanged: true, siteUrl: `https://stride.lk/"a"&b` });
    expect(password.html).toContain('href="https://stride.lk/&quot;a&quot;&amp;b/forgot-password"');
  });
});
