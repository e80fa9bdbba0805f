import { expect, test } from "@playwright/test";

import { DEMO_ADMIN, DEMO_CUSTOMER, gotoHydrated, logIn, register, uniqueUser, waitForHydration } from "./helpers";

// Accounts in a real browser against the real Worker, D1 and all: no mocks.
// Every test starts from a fresh browser context (no cookies), so none depends on another.

test("a new shopper registers, logs out, logs back in and edits the profile", async ({ page }) => {
  const user = uniqueUser();

  // Register: a new customer is logged in at once and lands on the shop.
  await gotoHydrated(page, "/register");
  await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
  await register(page, user);

  // ...where it is welcomed by its first name (a one-time parameter the root's toast reads).
  await expect(page).toHaveURL("/?welcome=1");
  await expect(page.getByText(`Welcome to Stride, ${user.name.split(" ")[0]}: your account is ready`, { exact: true })).toBeVisible();
  const profileLink = page.getByRole("link", { name: `Profile of ${user.name}` });
  await expect(profileLink).toBeVisible();
  await expect(page.getByRole("link", { name: "Login", exact: true })).toHaveCount(0);

  // Logout goes to the login page, with a page load (SPEC), and the session is gone.
  await page.evaluate(() => ((window as unknown as { beforeLogout: boolean }).beforeLogout = true));
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL("/login");
  expect(await page.evaluate(() => (window as unknown as { beforeLogout?: boolean }).beforeLogout)).toBeUndefined();
  await expect(page.getByRole("heading", { level: 1, name: "Welcome back" })).toBeVisible();

  // Log in with the new account.
  await logIn(page, user);
  await expect(page).toHaveURL("/");
  await expect(profileLink).toBeVisible();

  // The profile is prefilled with what was registered.
  await profileLink.click();
  await expect(page).toHaveURL("/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
  const name = page.getByLabel("Name", { exact: true });
  const address = page.getByLabel("Address", { exact: true });
  await expect(name).toHaveValue(user.name);
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(user.email);
  await expect(address).toHaveValue(user.address);
  await expect(page.getByLabel("Phone", { exact: true })).toHaveValue(user.phone);

  // Change the name and the address.
  const newName = `${user.name} Renamed`;
  const newAddress = "45 Kandy Road, Kiribathgoda";
  await name.fill(newName);
  await address.fill(newAddress);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toHaveText("Profile updated successfully.");
  await expect(name).toHaveValue(newName);
  await expect(address).toHaveValue(newAddress);

  // The values were stored, not just left in the form.
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(newName);
  await expect(page.getByLabel("Address", { exact: true })).toHaveValue(newAddress);

  // Back to the shop (the profile screen has no navigation bar), which shows the new name, then log out.
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("link", { name: `Profile of ${newName}` })).toBeVisible();
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL("/login");

  // Logged out for real: the profile asks for a login again.
  await page.goto("/profile");
  await expect(page).toHaveURL("/login?redirect=%2Fprofile");
});

test("the profile asks a visitor to log in, then returns to it", async ({ page }) => {
  await page.goto("/profile");
  await expect(page).toHaveURL("/login?redirect=%2Fprofile");
  await waitForHydration(page);

  await logIn(page, DEMO_CUSTOMER);
  await expect(page).toHaveURL("/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(DEMO_CUSTOMER.email);
});

test("the theme toggle switches to dark and back, and the choice survives a reload", async ({ page }) => {
  // SPEC §3's names, 'light-theme' and 'dark-theme', are <html>'s class (and data-theme), and the dark styles key on it.
  const html = page.locator("html");
  const expectTheme = async (theme: "light-theme" | "dark-theme") => {
    await expect(html).toHaveClass(theme);
    await expect(html).toHaveAttribute("data-theme", theme);
  };
  const pageBackground = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await gotoHydrated(page, "/");
  await expectTheme("light-theme");
  const lightBackground = await pageBackground();

  // With JavaScript the class changes in place: a marker on window would not survive a page load.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await expectTheme("dark-theme");
  await expect.poll(pageBackground, { message: "the dark styles apply" }).not.toBe(lightBackground);
  expect(await page.evaluate(() => "sameDocument" in window), "toggled without reloading the page").toBe(true);
  // The label flips once the server has stored the cookie and the page has reloaded its data.
  await expect(page.getByRole("button", { name: "Switch to light theme" })).toBeVisible();

  await page.reload();
  await waitForHydration(page);
  await expectTheme("dark-theme");

  await page.getByRole("button", { name: "Switch to light theme" }).click();
  await expectTheme("light-theme");
  await expect.poll(pageBackground).toBe(lightBackground);
  await expect(page.getByRole("button", { name: "Switch to dark theme" })).toBeVisible();

  await page.reload();
  await waitForHydration(page);
  await expectTheme("light-theme");
});

test.describe("the register form", () => {
  test("refuses passwords that do not match", async ({ page }) => {
    const user = uniqueUser();
    await gotoHydrated(page, "/register");
    await register(page, user, `${user.password}-typo`);

    // The error sits under the confirmation field and is tied to it for screen readers.
    const confirm = page.getByLabel("Confirm password", { exact: true });
    await expect(confirm).toHaveAttribute("aria-invalid", "true");
    await expect(confirm).toHaveAccessibleDescription("Passwords do not match");
    await expect(page.locator("#confirmPassword-error")).toBeVisible();
    // The focus goes to the field at fault, not back to the top of the page.
    await expect(confirm).toBeFocused();
    await expect(page).toHaveURL("/register");
    await expect(page.getByRole("button", { name: "Logout" })).toHaveCount(0);
  });

  test("keeps only digits in the phone field, at most ten", async ({ page }) => {
    await gotoHydrated(page, "/register");
    const phone = page.getByLabel("Phone", { exact: true });
    await phone.pressSequentially("07a7-123 4567 89");
    await expect(phone).toHaveValue("0771234567");
  });

  test("a pasted number keeps all its digits, and a +94 number becomes the national one", async ({ page }) => {
    await gotoHydrated(page, "/register");
    const phone = page.getByLabel("Phone", { exact: true });
    // fill() inserts the text at once, as a paste does (a maxlength would cut it before the spaces are taken out).
    await phone.fill("077 123 4567");
    await expect(phone).toHaveValue("0771234567");
    await phone.fill("+94 77 123 4567");
    await expect(phone).toHaveValue("0771234567");
  });
});

test("a wrong password is refused with one message for both fields", async ({ page }) => {
  await gotoHydrated(page, "/login");
  await logIn(page, { email: DEMO_CUSTOMER.email, password: "not-the-password" });
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password.");
  // No field is at fault alone: the focus goes to the message, which is read out.
  await expect(page.getByRole("alert")).toBeFocused();
  await expect(page).toHaveURL("/login");
  await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
});

test("an admin lands on the dashboard after logging in", async ({ page }) => {
  await gotoHydrated(page, "/login");
  // The two tabs are labels only (the account decides the role), but an admin would pick this one.
  await page.getByText("Admin Login", { exact: true }).click();
  await expect(page.getByRole("radio", { name: "Admin Login" })).toBeChecked();
  await logIn(page, DEMO_ADMIN);
  await expect(page).toHaveURL("/admin/dashboard");
});

test("the show/hide button reveals and hides the password", async ({ page }) => {
  await gotoHydrated(page, "/login");
  const password = page.getByLabel("Password", { exact: true });
  await password.fill("Secret#123");
  await expect(password).toHaveAttribute("type", "password");

  await page.getByRole("button", { name: "Show password" }).click();
  await expect(password).toHaveAttribute("type", "text");
  await expect(password).toHaveValue("Secret#123");
  await expect(page.getByRole("button", { name: "Hide password" })).toHaveAttribute("aria-pressed", "true");

  await page.getByRole("button", { name: "Hide password" }).click();
  await expect(password).toHaveAttribute("type", "password");
  await expect(page.getByRole("button", { name: "Show password" })).toHaveAttribute("aria-pressed", "false");
});
