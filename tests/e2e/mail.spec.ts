import { expect, test, type Browser, type Page } from "@playwright/test";

import { logInAs } from "./admin-helpers";
import { gotoHydrated, isDemoProduct, logIn, register, uniqueUser, waitForHydration } from "./helpers";
import { failedMails } from "./outbox-helpers";

// The shop's mail, end to end on the server `npm start` runs (the Worker, its queue and consumer in Miniflare, local
// mode: mail is kept, never sent): what a checkout, a status change and a forgotten password write, read where an
// admin reads it, on /admin/outbox; and a mail that failed for good, sent again from there.

const PNG_SLIP = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGO4a2wMAAM0AUSds6MNAAAAAElFTkSuQmCC", "base64");
const slipFile = { name: "bank-slip.png", mimeType: "image/png", buffer: PNG_SLIP };

async function adminPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await logInAs(page);
  return page;
}

/**
 * The outbox's card of the newest mail with this subject, once the queue's consumer has handled it (state kept):
 * reloads until then, as an admin would.
 */
async function keptMail(admin: Page, subject: string) {
  const card = admin.getByTestId("outbox-mail").filter({ has: admin.getByRole("heading", { name: subject, exact: true }) }).first();
  await expect(async () => {
    await admin.goto("/admin/outbox");
    await expect(card).toHaveAttribute("data-state", "kept", { timeout: 1000 });
  }).toPass({ timeout: 20_000, intervals: [250, 500, 1000] });
  return card;
}

test("a checkout's confirmation is on /admin/outbox, and the admin's confirmation of the order sends the status mail", async ({ page, browser, baseURL }) => {
  test.slow();
  const user = uniqueUser();
  await page.goto("/register?redirect=%2Fcart");
  await register(page, user);
  await expect(page).toHaveURL("/cart?welcome=1");
  const catalogue = (await (await page.request.get("/api/products")).json()) as { id: number; name: string; stockQuantity: number; productAvailable: boolean; sizes: unknown[] }[];
  const product = catalogue.find((item) => isDemoProduct(item) && item.productAvailable && item.stockQuantity >= 3 && item.sizes.length === 1)!;
  expect((await page.request.post("/cart/add", { form: { productId: String(product.id) } })).ok()).toBe(true);

  await gotoHydrated(page, "/cart?checkout");
  const dialog = page.getByRole("dialog", { name: "Checkout" });
  await dialog.getByLabel("Bank slip").setInputFiles(slipFile);
  await dialog.getByRole("button", { name: /^Place Order/ }).click();
  await expect(page).toHaveURL(/\/orders\/\d+\?placed=1$/, { timeout: 15_000 });
  const orderId = new URL(page.url()).pathname.split("/").pop()!;

  const admin = await adminPage(browser, baseURL!);
  const confirmation = await keptMail(admin, `Stride order #${orderId}: we have your order`);
  await expect(confirmation.getByTestId("mail-to")).toHaveText(user.email);
  await expect(confirmation.getByTestId("mail-attempts")).toHaveText("1");
  const text = confirmation.getByTestId("mail-text");
  await expect(text).toContainText(`- ${product.name} x 1: LKR`);
  await expect(text).toContainText("Total: LKR");
  await expect(text).toContainText("Bank transfer details");
  // Written after payment: the slip is matched to the transfer, no reference is asked for.
  await expect(text).toContainText("we will confirm your order once we have matched your slip to the transfer.");
  await expect(text).not.toContainText("reference");
  await expect(text).toContainText(`/orders/${orderId}`);

  // The admin confirms the payment on the order's Manage dialog.
  await gotoHydrated(admin, `/admin/orders?manage=${orderId}`);
  const manage = admin.getByRole("dialog", { name: `Manage order #${orderId}` });
  await manage.getByLabel("New status").selectOption("CONFIRMED");
  await manage.getByRole("button", { name: "Update Status" }).click();
  await expect(manage.getByRole("status")).toHaveText(`Order #${orderId} is now CONFIRMED.`);

  const statusMail = await keptMail(admin, `Stride order #${orderId}: your payment is confirmed`);
  await expect(statusMail.getByTestId("mail-to")).toHaveText(user.email);
  await expect(statusMail.getByTestId("mail-text")).toContainText("We have received your bank transfer and your order is confirmed.");

  // The order's own page lists both, newest first; the outbox's order link leads there.
  await statusMail.getByRole("link", { name: `Order #${orderId}` }).click();
  await expect(admin).toHaveURL(`/admin/orders/${orderId}`);
  const sent = admin.getByTestId("order-emails").getByTestId("order-email");
  await expect(sent).toHaveCount(2);
  await expect(sent.nth(0)).toContainText(`Stride order #${orderId}: your payment is confirmed`);
  await expect(sent.nth(1)).toContainText(`Stride order #${orderId}: we have your order`);
  await expect(sent.nth(1).getByTestId("mail-state")).toHaveText("kept");

  // The next step is taken on the order's own page: the page stays, its status, history and e-mails follow.
  await waitForHydration(admin);
  const statusForm = admin.getByTestId("order-status-form");
  await expect(statusForm.getByLabel("New status")).toHaveValue("PROCESSING");
  await statusForm.getByRole("button", { name: "Update Status" }).click();
  await expect(statusForm.getByRole("status")).toHaveText(`Order #${orderId} is now PROCESSING.`);
  await expect(admin).toHaveURL(`/admin/orders/${orderId}`);
  await expect(admin.getByTestId("order-status")).toHaveText("PROCESSING");
  await expect(admin.getByTestId("status-history")).toContainText("PROCESSING");
  await expect(sent).toHaveCount(3);
  await expect(statusForm.getByLabel("New status")).toHaveValue("SHIPPED");

  // A correction back to CONFIRMED: the box to e-mail the customer unticks itself, and nothing is sent.
  const notify = statusForm.getByRole("checkbox", { name: "E-mail the customer about this change" });
  await expect(notify).toBeChecked();
  await statusForm.getByLabel("New status").selectOption("CONFIRMED");
  await expect(notify).not.toBeChecked();
  await statusForm.getByRole("button", { name: "Update Status" }).click();
  await expect(statusForm.getByRole("status")).toHaveText(`Order #${orderId} is now CONFIRMED. The customer was not e-mailed.`);
  await expect(admin.getByTestId("order-status")).toHaveText("CONFIRMED");
  await expect(sent).toHaveCount(3);
  // Forward again, the box is ticked again.
  await statusForm.getByLabel("New status").selectOption("SHIPPED");
  await expect(notify).toBeChecked();
  // An untick is for one move: after it, the next status starts ticked.
  await statusForm.getByLabel("New status").selectOption("PROCESSING");
  await notify.uncheck();
  await statusForm.getByRole("button", { name: "Update Status" }).click();
  await expect(statusForm.getByRole("status")).toHaveText(`Order #${orderId} is now PROCESSING. The customer was not e-mailed.`);
  await expect(statusForm.getByLabel("New status")).toHaveValue("SHIPPED");
  await expect(notify).toBeChecked();
  await expect(sent).toHaveCount(3);
  await admin.context().close();
});

test("a forgotten password is reset through the link on /admin/outbox: the new password logs in, the old session is gone", async ({ page, browser, baseURL }) => {
  test.slow();
  const user = uniqueUser();
  expect((await page.request.post("/api/auth/register", { data: user })).status()).toBe(201);

  // A session on another device, from before the reset.
  const oldDevice = await browser.newContext({ baseURL });
  const oldPage = await oldDevice.newPage();
  await gotoHydrated(oldPage, "/login");
  await logIn(oldPage, user);
  await expect(oldPage).toHaveURL("/");
  await gotoHydrated(oldPage, "/profile");
  await expect(oldPage.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();

  // 'Forgot password?' on the login page.
  await gotoHydrated(page, "/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL("/forgot-password");
  await waitForHydration(page);
  await page.getByLabel("Email", { exact: true }).fill(user.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toHaveText(/^If an account uses that e-mail, we have sent it a link/);
  // The form is gone: the focus is on what replaced it, not lost to the page.
  await expect(page.getByTestId("forgot-password-sent")).toBeFocused();

  // The mail, kept in local mode, read on the admin's outbox.
  const admin = await adminPage(browser, baseURL!);
  const mail = admin.getByTestId("outbox-mail").filter({ has: admin.getByTestId("mail-to").getByText(user.email, { exact: true }) }).first();
  await expect(async () => {
    await admin.goto("/admin/outbox?state=kept");
    await expect(mail.getByTestId("mail-subject")).toHaveText("Reset your Stride password", { timeout: 1000 });
  }).toPass({ timeout: 20_000, intervals: [250, 500, 1000] });
  const link = (await mail.getByTestId("mail-text").textContent())!.match(/https?:\/\/\S+\/reset-password\?token=[\w-]+/)?.[0];
  expect(link, "the reset link in the mail").toBeDefined();
  await admin.context().close();

  // The link, opened where the mail was read.
  const { pathname, search } = new URL(link!);
  await gotoHydrated(page, pathname + search);
  const newPassword = `New#${user.password}`;
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page).toHaveURL("/login?reset=1");
  await expect(page.getByRole("status")).toHaveText("Your password has been changed. Log in with your new password.");

  // The old password no longer works; the new one does.
  await waitForHydration(page);
  await logIn(page, user);
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password.");
  await logIn(page, { email: user.email, password: newPassword });
  await expect(page).toHaveURL("/");

  // The session from before the reset has ended, and the login page says so.
  await oldPage.goto("/profile");
  await expect(oldPage).toHaveURL(/\/login\?redirect=%2Fprofile&expired=1$/);
  await expect(oldPage.getByRole("alert")).toHaveText("Session expired. Please login again.");
  await oldDevice.close();

  // The link is spent.
  await gotoHydrated(page, pathname + search);
  await expect(page.getByTestId("reset-link-invalid")).toContainText("This reset link is invalid or has expired.");
});

test("a customer's new e-mail on /profile: the admin sees the notice to the OLD address on /admin/outbox, the new one masked", async ({ page, browser, baseURL }) => {
  test.slow();
  const user = uniqueUser();
  expect((await page.request.post("/api/auth/register", { data: user })).status()).toBe(201);
  await gotoHydrated(page, "/login");
  await logIn(page, user);
  await expect(page).toHaveURL("/");

  // "moved-e2e-...@stride.test": masked, "mo***@stride.test".
  const newEmail = `moved-${user.email}`;
  await gotoHydrated(page, "/profile");
  await page.getByLabel("Email", { exact: true }).fill(newEmail);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toHaveText("Profile updated successfully.");

  // Kept by the queue's consumer (local mode), read where an admin reads mail: the card sent to the old address.
  const admin = await adminPage(browser, baseURL!);
  const card = admin.getByTestId("outbox-mail").filter({ has: admin.getByTestId("mail-to").getByText(user.email, { exact: true }) });
  await expect(async () => {
    await admin.goto("/admin/outbox");
    await expect(card).toHaveAttribute("data-state", "kept", { timeout: 1000 });
  }).toPass({ timeout: 20_000, intervals: [250, 500, 1000] });
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("mail-subject")).toHaveText("Your Stride account's e-mail was changed");
  await expect(card.getByText("Account change notice", { exact: true })).toBeVisible();
  const text = card.getByTestId("mail-text");
  await expect(text).toContainText(`Hello ${user.name},`);
  await expect(text).toContainText("from this address to mo***@stride.test.");
  await expect(text).toContainText("If it was not you, contact us right away by replying to this e-mail");
  await expect(text).not.toContainText(newEmail);
  // Nothing was written to the new address.
  await expect(admin.getByTestId("mail-to").getByText(newEmail, { exact: true })).toHaveCount(0);
  await admin.context().close();
});

/** Opens the page of the outbox's `state` list (newest first) that shows the mail; false when no page does. */
async function openListingOf(page: Page, id: number, state: string): Promise<boolean> {
  for (let n = 1; n <= 50; n++) {
    await page.goto(`/admin/outbox?state=${state}${n > 1 ? `&page=${n}` : ""}`);
    if ((await page.locator(`[data-testid="outbox-mail"][data-mail-id="${id}"]`).count()) > 0) return true;
    if ((await page.getByTestId("outbox-mail").count()) === 0) return false;
  }
  return false;
}

for (const javaScript of [true, false]) {
  test(`a failed mail is sent again from /admin/outbox (${javaScript ? "with" : "without"} JavaScript): queued with its tries reset, then kept`, async ({ browser, baseURL }) => {
    // Written before the run (global-setup.ts), one for each of these two tests.
    const { to } = failedMails()[javaScript ? "retryWithJavaScript" : "retryWithoutJavaScript"];
    const context = await browser.newContext({ baseURL, javaScriptEnabled: javaScript });
    const admin = await context.newPage();
    await logInAs(admin);

    await (javaScript ? gotoHydrated(admin, "/admin/outbox?state=failed") : admin.goto("/admin/outbox?state=failed"));
    const mine = admin.getByTestId("outbox-mail").filter({ has: admin.getByTestId("mail-to").getByText(to, { exact: true }) });
    const id = Number(await mine.getAttribute("data-mail-id"));
    const card = admin.locator(`[data-testid="outbox-mail"][data-mail-id="${id}"]`);
    await expect(card).toHaveAttribute("data-state", "failed");
    await expect(card.getByTestId("mail-attempts")).toHaveText("5");
    await expect(card.getByTestId("mail-error")).toHaveText("Daily sending quota exceeded for this account");
    await expect(admin.getByTestId("retry-all")).toBeVisible();

    await card.getByRole("button", { name: `Send again mail ${id}` }).click();
    await expect(admin.getByTestId("retry-result").getByRole("status")).toHaveText(`Mail #${id} is queued again.`);
    // The button went with its mail: the focus is on the answer, not lost to the page.
    if (javaScript) await expect(admin.getByTestId("retry-result")).toBeFocused();
    // The form posted to the page it is on: the failed filter, which the mail has now left.
    await expect(admin).toHaveURL(/\/admin\/outbox\?state=failed$/);
    await expect(card).toHaveCount(0);

    // Kept once the queue's consumer has handled it (local mode): found among the kept mails, newest first, where a
    // mail written before the run sits pages deep.
    const listed = admin.locator(`[data-testid="outbox-mail"][data-mail-id="${id}"]`);
    await expect(async () => {
      expect(await openListingOf(admin, id, "kept")).toBe(true);
      await expect(listed).toHaveAttribute("data-state", "kept", { timeout: 1000 });
    }).toPass({ timeout: 20_000, intervals: [250, 500, 1000] });
    await expect(listed.getByTestId("mail-attempts")).toHaveText("1");
    await expect(listed.getByTestId("mail-error")).toHaveCount(0);
    await expect(listed.getByRole("button", { name: /^Send again/ })).toHaveCount(0);
    await context.close();
  });
}

test("a failed mail no longer true of its order is not offered again, and its card says why", async ({ browser, baseURL }) => {
  // Written before the run (global-setup.ts): "on its way", failed, and its order cancelled since.
  const { to } = failedMails().noLongerTrue;
  const admin = await adminPage(browser, baseURL!);
  await gotoHydrated(admin, "/admin/outbox?state=failed");
  const card = admin.getByTestId("outbox-mail").filter({ has: admin.getByTestId("mail-to").getByText(to, { exact: true }) });
  await expect(card).toHaveAttribute("data-state", "failed");
  await expect(card.getByTestId("mail-no-retry")).toHaveText("Not sent again: the order is now CANCELLED; this mail says SHIPPED.");
  await expect(card.getByRole("button", { name: /^Send again/ })).toHaveCount(0);
  await admin.context().close();
});
