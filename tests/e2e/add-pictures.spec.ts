import { expect, test, type Page } from "@playwright/test";

import { logInAs } from "./admin-helpers";
import { gotoHydrated, pngFromPixels, SCREENSHOT_VIEWPORTS } from "./helpers";

// The pictures chosen on the product forms before they are saved, in Chromium: each gets the saved pictures' Remove
// box and Move up / Move down / Make first (PictureFields), the file input is filled again with the ones kept in the
// order shown, and the "at most 8" message shows once and goes as soon as 8 are left (QA: 9 chosen could only be
// fixed by choosing all the files again, and the message showed twice). A second choice adds to the first (QA: it
// dropped it), and on the update form a new picture can go anywhere, first included (QA: it could not). Screenshots under /tmp/add-pictures-shots
// (SHOTS_DIR), 1280 and 390 wide, light and dark.

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/add-pictures-shots";
const PICTURES_INPUT = "Pictures (the first is the card's)";

/** Nine small PNGs of nine colours, p1.png to p9.png (small and without metadata: sent as chosen, byte for byte). */
const nine = Array.from({ length: 9 }, (_, index) => ({
  name: `p${index + 1}.png`,
  mimeType: "image/png",
  buffer: pngFromPixels(24 + index, 24, () => [20 + index * 25, 200 - index * 20, 60 + index * 15] as const),
}));
const byName = (name: string) => nine.find((file) => file.name === name)!.buffer;

/** The names of the files the input holds now: what the form would send, in order. */
const inputFiles = (page: Page, label = PICTURES_INPUT) => page.getByLabel(label, { exact: true }).evaluate((input: HTMLInputElement) => Array.from(input.files ?? [], (file) => file.name));
const tooMany = (page: Page) => page.getByText(/at most 8 pictures/);
const newPictures = (page: Page) => page.getByTestId("new-picture");

/** Saves the add form and reads the product it made: its id (for the test's clean-up) and what was saved. */
async function addAndRead(page: Page): Promise<{ id: number; saved: SavedProduct }> {
  await page.getByRole("button", { name: "Add Product", exact: true }).click();
  await expect(page).toHaveURL(/\/product\/\d+\?saved=1$/);
  const id = Number(new URL(page.url()).pathname.split("/").pop());
  return { id, saved: (await (await page.request.get(`/api/product/${id}`)).json()) as SavedProduct };
}

async function fillProduct(page: Page, name: string) {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Brand", { exact: true }).fill("Ninefold");
  await page.getByLabel("Description", { exact: true }).fill("Chosen nine times, saved eight.");
  await page.getByLabel("Price (LKR)", { exact: true }).fill("7490");
  await page.getByLabel("Category", { exact: true }).selectOption("Gents");
  await page.getByLabel("Stock of size 1", { exact: true }).fill("3");
  await page.getByLabel("Release date", { exact: true }).fill("2026-05-01");
}

interface SavedProduct {
  imageUrl: string;
  imageName: string;
  images: { name: string; url: string }[];
}

test("nine chosen pictures: the message once, Remove one, Make first the third, and the save keeps that order", async ({ page }) => {
  await logInAs(page);
  const name = `E2E Ninefold ${Date.now().toString(36)}`;
  let id: number | undefined;
  try {
    await gotoHydrated(page, "/add_product");
    await fillProduct(page, name);
    await page.getByLabel(PICTURES_INPUT, { exact: true }).setInputFiles(nine);
    await expect(newPictures(page)).toHaveCount(9);
    await expect(newPictures(page).first()).toContainText("1. The card's picture p1.png");
    await expect(tooMany(page)).toHaveCount(1);
    await expect(tooMany(page)).toHaveText("A product has at most 8 pictures, and 9 are listed: remove 1 before saving.");

    // Saved as it is, the server refuses the ninth: still one message, not the server's beside the form's.
    await page.getByRole("button", { name: "Add Product", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Please correct the highlighted fields." })).toBeVisible();
    await expect(tooMany(page)).toHaveCount(1);
    await expect(newPictures(page)).toHaveCount(9);

    // Remove the fifth: 8 left, the message goes, and the input holds the eight.
    await page.getByRole("checkbox", { name: "Remove new picture 5", exact: true }).check();
    await expect(tooMany(page)).toHaveCount(0);
    await expect(newPictures(page).nth(4)).toContainText("Removed: p5.png");
    expect(await inputFiles(page)).toEqual(["p1.png", "p2.png", "p3.png", "p4.png", "p6.png", "p7.png", "p8.png", "p9.png"]);

    // The third becomes the first (the card's picture): the list, the input and the focus follow.
    await page.getByRole("button", { name: "Make first: new picture 3", exact: true }).click();
    await expect(newPictures(page).first()).toContainText("1. The card's picture p3.png");
    await expect(page.getByRole("button", { name: "Move down: new picture 1", exact: true })).toBeFocused();
    await expect(page.getByText("p3.png is now picture 1 of 8.")).toBeAttached();
    await expect(page.getByRole("img", { name: "Preview of new picture 1" })).toBeVisible();
    const order = ["p3.png", "p1.png", "p2.png", "p4.png", "p6.png", "p7.png", "p8.png", "p9.png"];
    expect(await inputFiles(page)).toEqual(order);

    const added = await addAndRead(page);
    id = added.id;
    const saved = added.saved;
    expect(saved.images.map((picture) => picture.name)).toEqual(order);
    expect(saved.imageName).toBe("p3.png");
    expect(Buffer.from(await (await page.request.get(saved.images[0].url)).body()).equals(byName("p3.png"))).toBe(true);

    // The card shows the picture made first.
    await gotoHydrated(page, `/search?${new URLSearchParams({ keyword: name })}`);
    const card = page.getByTestId("product-card").filter({ hasText: name });
    await expect(card).toHaveCount(1);
    const src = await card.getByRole("img").getAttribute("src");
    expect(src).toBe(saved.imageUrl);
    expect(Buffer.from(await (await page.request.get(src!)).body()).equals(byName("p3.png"))).toBe(true);
  } finally {
    if (id !== undefined) await page.request.delete(`/api/product/${id}`).catch(() => undefined);
  }
});

test("the chosen pictures' controls work from the keyboard, the focus staying with the moved picture", async ({ page }) => {
  await logInAs(page);
  await gotoHydrated(page, "/add_product");
  const input = page.getByLabel(PICTURES_INPUT, { exact: true });
  await input.setInputFiles(nine.slice(0, 3));
  await expect(newPictures(page)).toHaveCount(3);
  await input.focus();
  // The first picture's alt text, then its controls: its Move up is disabled (out of the tab order), its Move down next.
  await page.keyboard.press("Tab");
  await expect(newPictures(page).first().getByLabel("Alt text")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Move down: new picture 1", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  expect(await inputFiles(page)).toEqual(["p2.png", "p1.png", "p3.png"]);
  await expect(page.getByRole("button", { name: "Move down: new picture 2", exact: true })).toBeFocused();
  // Moved last, its Move down is disabled: its Move up takes the focus.
  await page.keyboard.press("Space");
  expect(await inputFiles(page)).toEqual(["p2.png", "p3.png", "p1.png"]);
  await expect(page.getByRole("button", { name: "Move up: new picture 3", exact: true })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Make first: new picture 3", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  expect(await inputFiles(page)).toEqual(["p1.png", "p2.png", "p3.png"]);
  await expect(page.getByRole("button", { name: "Move down: new picture 1", exact: true })).toBeFocused();
  // Then its Remove box (Make first is disabled on the first), checked with Space and unchecked again.
  await page.keyboard.press("Tab");
  const remove = page.getByRole("checkbox", { name: "Remove new picture 1", exact: true });
  await expect(remove).toBeFocused();
  await page.keyboard.press("Space");
  await expect(remove).toBeChecked();
  expect(await inputFiles(page)).toEqual(["p2.png", "p3.png"]);
  await expect(newPictures(page).nth(1)).toContainText("1. The card's picture p2.png");
  await page.keyboard.press("Space");
  expect(await inputFiles(page)).toEqual(["p1.png", "p2.png", "p3.png"]);
});

test("a second choice adds to the pictures chosen (a phone adds one at a time), and past 8 says how many to remove", async ({ page }) => {
  await logInAs(page);
  const name = `E2E One By One ${Date.now().toString(36)}`;
  let id: number | undefined;
  try {
    await gotoHydrated(page, "/add_product");
    await fillProduct(page, name);
    const input = page.getByLabel(PICTURES_INPUT, { exact: true });
    // QA's steps: two pictures, then the picker again for a third: all three are listed, and sent.
    await input.setInputFiles(nine.slice(0, 2));
    await expect(newPictures(page)).toHaveCount(2);
    await input.setInputFiles(nine.slice(2, 3));
    await expect(newPictures(page)).toHaveCount(3);
    await expect(newPictures(page).nth(2)).toContainText("3. p3.png");
    expect(await inputFiles(page)).toEqual(["p1.png", "p2.png", "p3.png"]);

    // Each stays removable and movable; the picker closed without a choice (the input emptied) keeps them all.
    await page.getByRole("checkbox", { name: "Remove new picture 2", exact: true }).check();
    await page.getByRole("button", { name: "Make first: new picture 3", exact: true }).click();
    expect(await inputFiles(page)).toEqual(["p3.png", "p1.png"]);
    await input.setInputFiles([]);
    await expect(newPictures(page)).toHaveCount(3);
    expect(await inputFiles(page)).toEqual(["p3.png", "p1.png"]);

    // Six more make 8: no message. One more makes 9: the message says so, and how many to remove; read out.
    await input.setInputFiles(nine.slice(3, 9));
    await expect(newPictures(page)).toHaveCount(9);
    await expect(tooMany(page)).toHaveCount(0);
    await input.setInputFiles(nine.slice(1, 2));
    await expect(newPictures(page)).toHaveCount(10);
    const message = page.getByTestId("pictures-too-many");
    await expect(message).toHaveText("A product has at most 8 pictures, and 9 are listed: remove 1 before saving.");
    await expect(message).toHaveAttribute("role", "status");
    expect(await inputFiles(page)).toEqual(["p3.png", "p1.png", "p4.png", "p5.png", "p6.png", "p7.png", "p8.png", "p9.png", "p2.png"]);
    await page.getByRole("checkbox", { name: "Remove new picture 9", exact: true }).check(); // p9
    await expect(tooMany(page)).toHaveCount(0);
    const order = ["p3.png", "p1.png", "p4.png", "p5.png", "p6.png", "p7.png", "p8.png", "p2.png"];
    expect(await inputFiles(page)).toEqual(order);

    const added = await addAndRead(page);
    id = added.id;
    const saved = added.saved;
    expect(saved.images.map((picture) => picture.name)).toEqual(order);
  } finally {
    if (id !== undefined) await page.request.delete(`/api/product/${id}`).catch(() => undefined);
  }
});

test("on the update form a new picture can be made the first, saved pictures can go below new ones, and a new one has its alt text", async ({ page }) => {
  await logInAs(page);
  const name = `E2E Addlater ${Date.now().toString(36)}`;
  let id: number | undefined;
  try {
    await gotoHydrated(page, "/add_product");
    await fillProduct(page, name);
    await page.getByLabel(PICTURES_INPUT, { exact: true }).setInputFiles(nine.slice(0, 1));
    await expect(newPictures(page)).toHaveCount(1);
    await page.getByRole("button", { name: "Add Product", exact: true }).click();
    await expect(page).toHaveURL(/\/product\/\d+\?saved=1$/);
    id = Number(new URL(page.url()).pathname.split("/").pop());

    await gotoHydrated(page, `/product/update/${id}`);
    await page.getByLabel("Add pictures", { exact: true }).setInputFiles(nine.slice(1, 3));
    await expect(newPictures(page)).toHaveCount(2);
    const pictures = page.getByRole("list", { name: "Pictures" }).getByRole("listitem");
    await expect(pictures).toHaveCount(3);
    await expect(pictures.nth(1)).toContainText("2. p2.png");

    // The phone's last photo becomes the card's picture; the focus stays with it (its Make first is disabled now).
    await page.getByRole("button", { name: "Make first: new picture 2", exact: true }).click();
    await expect(pictures.first()).toContainText("1. The card's picture p3.png");
    await expect(page.getByRole("button", { name: "Move down: new picture 1", exact: true })).toBeFocused();
    await expect(page.getByText("p3.png is now picture 1 of 3.")).toBeAttached();
    // The saved picture goes below the other new one.
    await page.getByRole("button", { name: "Move down: picture 1", exact: true }).click();
    await expect(pictures.nth(2)).toContainText("3. p1.png");
    expect(await inputFiles(page, "Add pictures")).toEqual(["p3.png", "p2.png"]);
    await pictures.first().getByLabel("Alt text").fill("the new side, in the sun");

    await page.getByRole("button", { name: "Update Product", exact: true }).click();
    await expect(page).toHaveURL(`/product/${id}?saved=1`);
    const saved = (await (await page.request.get(`/api/product/${id}`)).json()) as Omit<SavedProduct, "images"> & { images: { name: string; altText: string | null }[] };
    expect(saved.images.map((picture) => [picture.name, picture.altText])).toEqual([
      ["p3.png", "the new side, in the sun"],
      ["p2.png", null],
      ["p1.png", null],
    ]);
    expect(saved.imageName).toBe("p3.png");
    expect(Buffer.from(await (await page.request.get(saved.imageUrl)).body()).equals(byName("p3.png"))).toBe(true);
  } finally {
    if (id !== undefined) await page.request.delete(`/api/product/${id}`).catch(() => undefined);
  }
});

for (const { label, viewport, isMobile, hasTouch } of SCREENSHOT_VIEWPORTS) {
  test.describe(`screenshots ${label}`, () => {
    test.use({ viewport, isMobile, hasTouch });
    for (const theme of ["light", "dark"] as const) {
      test(`the add form with chosen pictures (${theme})`, async ({ page, context, baseURL }) => {
        await context.addCookies([{ name: "theme", value: `${theme}-theme`, url: baseURL! }]);
        await logInAs(page);
        await gotoHydrated(page, "/add_product");
        await page.getByLabel(PICTURES_INPUT, { exact: true }).setInputFiles(nine);
        await expect(newPictures(page)).toHaveCount(9);
        const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(await sideways()).toBe(0);
        await expect(page.getByTestId("pictures-too-many")).toBeVisible();
        // From the top: a full-page shot taken scrolled down paints the sticky header over the middle of the page.
        const top = () => page.evaluate(() => window.scrollTo(0, 0));
        await top();
        await page.screenshot({ path: `${SHOTS}/add-chosen-nine-${theme}-${label}.png`, fullPage: true });
        await page.getByRole("checkbox", { name: "Remove new picture 5", exact: true }).check();
        await page.getByRole("button", { name: "Make first: new picture 3", exact: true }).click();
        await expect(newPictures(page).first()).toContainText("p3.png");
        expect(await sideways()).toBe(0);
        await top();
        await page.screenshot({ path: `${SHOTS}/add-chosen-edited-${theme}-${label}.png`, fullPage: true });
        await page.getByRole("list", { name: "New pictures" }).screenshot({ path: `${SHOTS}/add-chosen-list-${theme}-${label}.png` });
      });
    }
  });
}
