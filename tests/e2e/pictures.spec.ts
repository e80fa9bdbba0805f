import { expect, test, type Locator, type Page } from "@playwright/test";

import { logInAs } from "./admin-helpers";
import { gotoHydrated, pngFromPixels, SCREENSHOT_VIEWPORTS, waitForHydration } from "./helpers";

// Pictures in Chromium: the product page's gallery (thumbnails, arrow keys, swipe, and without JavaScript), the admin
// adding several pictures and ordering them; screenshots of the gallery and the forms, light and dark, 1280 and 390
// wide, under /tmp/pictures-shots (SHOTS_DIR) for people to look at.

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/pictures-shots";
/** The first demo product: `npm start` seeds three pictures for each (side, other side, a close-up in a second colourway). */
const DEMO_ID = 1;

interface Picture {
  id: number;
  url: string;
  alt: string;
  name: string;
}
const demoPictures = async (page: Page) => ((await (await page.request.get(`/api/product/${DEMO_ID}`)).json()) as { images: Picture[] }).images;
const mainPicture = (page: Page) => page.getByTestId("gallery-main").getByRole("img");
const thumbs = (page: Page) => page.getByRole("list", { name: "Pictures" }).getByRole("link");
const loaded = (image: Locator) => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0);

test.describe("product page gallery", () => {
  test("thumbnails, arrow keys and a swipe change the picture; the URL follows", async ({ page }) => {
    const pictures = await demoPictures(page);
    expect(pictures.length).toBeGreaterThanOrEqual(3);
    await gotoHydrated(page, `/product/${DEMO_ID}`);
    await expect(mainPicture(page)).toHaveAttribute("alt", pictures[0].alt);
    await expect(mainPicture(page)).toHaveAttribute("width", "640");
    await expect(mainPicture(page)).toHaveAttribute("height", "640");
    await expect(thumbs(page)).toHaveCount(pictures.length);
    for (const [index, picture] of pictures.entries()) await expect(thumbs(page).nth(index).getByRole("img")).toHaveAttribute("alt", picture.alt);

    await thumbs(page).nth(1).click();
    await expect(mainPicture(page)).toHaveAttribute("src", pictures[1].url);
    await expect(page).toHaveURL(new RegExp(`/product/${DEMO_ID}\\?image=2$`));
    await expect(thumbs(page).nth(1)).toHaveAttribute("aria-current", "true");
    await expect.poll(() => loaded(mainPicture(page))).toBe(true);

    // Arrow keys move along the thumbnails, and focus follows (visible focus ring on the focused thumbnail).
    await page.keyboard.press("ArrowRight");
    await expect(mainPicture(page)).toHaveAttribute("src", pictures[2].url);
    await expect(thumbs(page).nth(2)).toBeFocused();
    const outline = await thumbs(page).nth(2).evaluate((element) => getComputedStyle(element).outlineStyle);
    expect(outline).not.toBe("none");
    await page.keyboard.press("Home");
    await expect(mainPicture(page)).toHaveAttribute("src", pictures[0].url);
    await page.keyboard.press("ArrowLeft"); // wraps round to the last
    await expect(mainPicture(page)).toHaveAttribute("src", pictures[pictures.length - 1].url);

    // A swipe to the right shows the previous picture, one to the left the next.
    const box = (await page.getByTestId("gallery-main").boundingBox())!;
    const swipe = async (from: number, to: number) => {
      await page.mouse.move(box.x + box.width * from, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * to, box.y + box.height / 2 + 5, { steps: 5 });
      await page.mouse.up();
    };
    await swipe(0.3, 0.8);
    await expect(mainPicture(page)).toHaveAttribute("src", pictures[pictures.length - 2].url);
    await swipe(0.8, 0.3);
    await expect(mainPicture(page)).toHaveAttribute("src", pictures[pictures.length - 1].url);

    // A reload keeps the picture the URL names.
    await page.reload();
    await waitForHydration(page);
    await expect(mainPicture(page)).toHaveAttribute("src", pictures[pictures.length - 1].url);
  });

  test("the thumbnails are one Tab stop, the chosen one; the arrow keys move on from the focused thumbnail", async ({ page }) => {
    const pictures = await demoPictures(page);
    await gotoHydrated(page, `/product/${DEMO_ID}`);
    const focusedHref = () => page.evaluate(() => document.activeElement?.getAttribute("href") ?? null);
    const inThumbnails = () => page.evaluate(() => Boolean(document.activeElement?.closest("ul[aria-label=Pictures]")));

    // Next picture twice from the keyboard: the third picture is chosen, and only its thumbnail is a Tab stop.
    await page.getByRole("link", { name: "Next picture" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await expect(mainPicture(page)).toHaveAttribute("src", pictures[2].url);
    const tabbable = () => thumbs(page).evaluateAll((links) => links.map((link) => (link as HTMLElement).tabIndex >= 0));
    await expect.poll(tabbable).toEqual(pictures.map((_, index) => index === 2));
    await page.keyboard.press("Tab");
    expect(await focusedHref()).toBe("?image=3");
    // Tab again leaves the thumbnails (no stop on the others), Shift+Tab comes back to the chosen one.
    await page.keyboard.press("Tab");
    expect(await inThumbnails()).toBe(false);
    await page.keyboard.press("Shift+Tab");
    expect(await focusedHref()).toBe("?image=3");

    // The arrows count from the thumbnail that has the focus, whichever picture is chosen.
    await thumbs(page).nth(0).focus();
    await page.keyboard.press("ArrowRight");
    expect(await focusedHref()).toBe("?image=2");
    await expect(mainPicture(page)).toHaveAttribute("src", pictures[1].url);
    await expect(thumbs(page).nth(1)).toHaveAttribute("aria-current", "true");
    await expect(thumbs(page).nth(1)).not.toHaveAttribute("tabindex", "-1");
    await expect(thumbs(page).nth(2)).toHaveAttribute("tabindex", "-1");
    await page.keyboard.press("End");
    expect(await focusedHref()).toBe(`?image=${pictures.length}`);
  });

  for (const theme of ["light", "dark"] as const) {
    test(`a focused thumbnail does not look like the chosen one (${theme})`, async ({ page, context, baseURL }) => {
      await context.addCookies([{ name: "theme", value: `${theme}-theme`, url: baseURL! }]);
      await gotoHydrated(page, `/product/${DEMO_ID}?image=2`);
      await page.keyboard.press("Tab"); // a key first, so the focus below shows its ring (:focus-visible)
      await thumbs(page).nth(0).focus();
      const chosenBorder = await thumbs(page).nth(1).evaluate((element) => getComputedStyle(element).borderTopColor);
      const ring = await thumbs(page).nth(0).evaluate((element) => ({ style: getComputedStyle(element).outlineStyle, color: getComputedStyle(element).outlineColor }));
      expect(ring.style).not.toBe("none");
      expect(ring.color, "the focus ring's colour differs from the chosen thumbnail's border").not.toBe(chosenBorder);
      // And the choice shows without colour too: the other thumbnails are faded, the chosen one is not.
      expect(await thumbs(page).nth(1).evaluate((element) => getComputedStyle(element).opacity)).toBe("1");
      expect(Number(await thumbs(page).nth(2).evaluate((element) => getComputedStyle(element).opacity))).toBeLessThan(1);
    });
  }

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("thumbnails and the next arrow are links that show the picture they name", async ({ page }) => {
      const pictures = await demoPictures(page);
      await page.goto(`/product/${DEMO_ID}`);
      await thumbs(page).nth(2).click();
      await expect(page).toHaveURL(new RegExp(`\\?image=3$`));
      await expect(mainPicture(page)).toHaveAttribute("src", pictures[2].url);
      await page.getByRole("link", { name: "Next picture" }).click();
      await expect(page).toHaveURL(new RegExp(`\\?image=1$`));
      await expect(mainPicture(page)).toHaveAttribute("src", pictures[0].url);
    });
  });
});

const colourPng = (rgb: readonly [number, number, number], width = 40, height = 40) => pngFromPixels(width, height, () => rgb);
const files = [
  { name: "red.png", mimeType: "image/png", buffer: colourPng([200, 30, 30], 60, 40) },
  { name: "green.png", mimeType: "image/png", buffer: colourPng([30, 160, 60]) },
  { name: "blue.png", mimeType: "image/png", buffer: colourPng([30, 60, 200], 30, 50) },
];

test("the admin adds a product with several pictures, then reorders, describes and removes them", async ({ page }) => {
  await logInAs(page);
  const name = `E2E Picture Shoe ${Date.now().toString(36)}`;
  let id: number | undefined;
  try {
    await gotoHydrated(page, "/add_product");
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Brand", { exact: true }).fill("Pictura");
    await page.getByLabel("Description", { exact: true }).fill("Three colours of one shoe.");
    await page.getByLabel("Price (LKR)", { exact: true }).fill("9990");
    await page.getByLabel("Category", { exact: true }).selectOption("Ladies");
    await page.getByLabel("Stock of size 1", { exact: true }).fill("4");
    await page.getByLabel("Release date", { exact: true }).fill("2026-04-01");
    await page.getByLabel("Pictures (the first is the card's)", { exact: true }).setInputFiles(files);
    for (const n of [1, 2, 3]) await expect(page.getByRole("img", { name: `Preview of new picture ${n}` })).toBeVisible();
    await page.getByRole("button", { name: "Add Product", exact: true }).click();
    await expect(page).toHaveURL(/\/product\/\d+\?saved=1$/);
    id = Number(new URL(page.url()).pathname.split("/").pop());
    await waitForHydration(page);
    await expect(thumbs(page)).toHaveCount(3);
    await expect(mainPicture(page)).toHaveAttribute("alt", `Pictura ${name}, picture 1 of 3`);
    await expect(mainPicture(page)).toHaveAttribute("width", "60");
    await expect(mainPicture(page)).toHaveAttribute("height", "40");

    // Update: blue first, green described, red removed.
    await gotoHydrated(page, `/product/update/${id}`);
    const current = page.getByTestId("current-picture");
    await expect(current).toHaveCount(3);
    await page.getByRole("button", { name: "Make first: picture 3", exact: true }).click();
    await expect(current.first()).toContainText("blue.png");
    // The focus stays with the moved picture (its Make first is disabled now: its Move down takes it), and the move is said.
    await expect(page.getByRole("button", { name: "Move down: picture 1", exact: true })).toBeFocused();
    await expect(page.getByText("blue.png is now picture 1 of 3.")).toBeAttached();
    await page.getByRole("button", { name: "Move down: picture 2", exact: true }).click(); // red below green
    await expect(current.nth(2)).toContainText("red.png");
    await current.nth(1).getByLabel("Alt text").fill("green, from above");
    await page.getByRole("checkbox", { name: "Remove picture 3" }).check();
    await page.getByLabel("Add pictures", { exact: true }).setInputFiles([{ name: "extra.png", mimeType: "image/png", buffer: colourPng([240, 200, 20]) }]);
    await expect(page.getByRole("img", { name: "Preview of new picture 1" })).toBeVisible();
    await page.getByRole("button", { name: "Update Product", exact: true }).click();
    await expect(page).toHaveURL(`/product/${id}?saved=1`);
    const saved = (await (await page.request.get(`/api/product/${id}`)).json()) as { images: (Picture & { altText: string | null })[] };
    expect(saved.images.map((picture) => [picture.name, picture.altText])).toEqual([
      ["blue.png", null],
      ["green.png", "green, from above"],
      ["extra.png", null],
    ]);
    await waitForHydration(page);
    await expect(thumbs(page).nth(1).getByRole("img")).toHaveAttribute("alt", `Pictura ${name}, picture 2 of 3: green, from above`);
  } finally {
    if (id !== undefined) await page.request.delete(`/api/product/${id}`).catch(() => undefined);
  }
});

for (const { label, viewport, isMobile, hasTouch } of SCREENSHOT_VIEWPORTS) {
  test.describe(`screenshots ${label}`, () => {
    test.use({ viewport, isMobile, hasTouch });
    for (const theme of ["light", "dark"] as const) {
      test(`gallery and forms (${theme})`, async ({ page, context, baseURL }) => {
        await context.addCookies([{ name: "theme", value: `${theme}-theme`, url: baseURL! }]);
        await logInAs(page);
        await gotoHydrated(page, `/product/${DEMO_ID}?image=2`);
        await expect(mainPicture(page)).toBeVisible();
        await thumbs(page).nth(1).focus(); // the focus ring is in the picture too
        for (const image of [mainPicture(page), ...(await thumbs(page).getByRole("img").all())]) await expect.poll(() => loaded(image)).toBe(true);
        await page.screenshot({ path: `${SHOTS}/product-${theme}-${label}.png` });
        // The focus on one thumbnail and the choice on another, side by side: they must not look alike.
        await thumbs(page).nth(0).focus();
        await page.screenshot({ path: `${SHOTS}/product-focus-apart-${theme}-${label}.png` });
        await gotoHydrated(page, `/product/update/${DEMO_ID}`);
        await expect(page.getByTestId("current-picture")).toHaveCount(3);
        await page.screenshot({ path: `${SHOTS}/update-${theme}-${label}.png`, fullPage: true });
        await gotoHydrated(page, "/add_product");
        await page.getByLabel("Pictures (the first is the card's)", { exact: true }).setInputFiles(files);
        await expect(page.getByRole("img", { name: "Preview of new picture 3" })).toBeVisible();
        await page.screenshot({ path: `${SHOTS}/add-${theme}-${label}.png`, fullPage: true });
      });
    }
  });
}

test("a chosen file that is no picture, or is over 5 MB, says so before the form is sent; a picture is previewed", async ({ page }) => {
  await logInAs(page);
  await gotoHydrated(page, "/add_product");
  // Judged by their bytes, as the server judges them: a text file named .png is no picture, a PNG without a name's
  // extension is one. A GIF is sent as chosen (never re-encoded: it may be animated), so one over 5 MB is refused; a
  // PNG over 5 MB is prepared in the browser (prepare-picture.ts) into a small file, and is no longer refused.
  const GIF_1X1 = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
  await page.getByLabel("Pictures (the first is the card's)", { exact: true }).setInputFiles([
    { name: "spec.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n") },
    { name: "shoe", mimeType: "application/octet-stream", buffer: colourPng([20, 120, 200]) },
    { name: "huge.gif", mimeType: "image/gif", buffer: Buffer.concat([GIF_1X1, Buffer.alloc(5 * 1024 * 1024)]) },
    { name: "notes.png", mimeType: "image/png", buffer: Buffer.from("these are notes") },
    { name: "huge.png", mimeType: "image/png", buffer: Buffer.concat([colourPng([1, 2, 3]), Buffer.alloc(5 * 1024 * 1024)]) },
  ]);
  await expect(page.getByTestId("picture-problem")).toHaveText(["Image must be a JPEG, PNG, WebP or GIF picture", "Image must be at most 5 MB", "Image must be a JPEG, PNG, WebP or GIF picture"]);
  await expect(page.getByRole("img", { name: "Preview of new picture 2" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Preview of new picture 5" })).toBeVisible();
  await expect(page.getByRole("img", { name: /Preview of new picture (1|3|4)/ })).toHaveCount(0);
  await expect(page.getByTestId("picture-note")).toHaveText(["As chosen, 40 x 40, 107 bytes", /^Compressed to \d+\s(bytes|KB)$/]);
  await expect(page.getByRole("list", { name: "New pictures" }).getByRole("listitem").nth(4)).toContainText("huge.jpg");
});

test("on a phone the product form ends with its actions, after the pictures", async ({ page }) => {
  await logInAs(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/add_product");
  const pictures = page.getByLabel("Pictures (the first is the card's)", { exact: true });
  const submit = page.getByRole("button", { name: "Add Product", exact: true });
  const [picturesBox, submitBox] = [await pictures.boundingBox(), await submit.boundingBox()];
  expect(submitBox!.y).toBeGreaterThan(picturesBox!.y + picturesBox!.height);
  // And in the keyboard's order: the pictures' input comes before the form's buttons.
  const order = await page.evaluate(() => {
    const form = document.querySelector("form[enctype='multipart/form-data']")!;
    const focusable = Array.from(form.querySelectorAll<HTMLElement>("input:not([type=hidden]), select, textarea, button, a[href]"));
    const index = (test: (element: HTMLElement) => boolean) => focusable.findIndex(test);
    return { pictures: index((element) => element.getAttribute("type") === "file"), submit: index((element) => element.getAttribute("type") === "submit") };
  });
  expect(order.pictures).toBeGreaterThanOrEqual(0);
  expect(order.submit).toBeGreaterThan(order.pictures);
});

test("a field's error goes once the admin changes the field, and a new refusal brings it back", async ({ page }) => {
  await logInAs(page);
  await page.goto("/add_product");
  await waitForHydration(page);
  const submit = page.getByRole("button", { name: "Add Product", exact: true });
  await submit.click();
  const name = page.getByLabel("Name", { exact: true });
  await expect(page.getByText("Name is required")).toBeVisible();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await name.fill("Half-filled Runner");
  await expect(page.getByText("Name is required")).toHaveCount(0);
  await expect(name).not.toHaveAttribute("aria-invalid", "true");
  // The other fields' errors stay until they are changed.
  await expect(page.getByText("Brand is required")).toBeVisible();
  // The description and the category (a textarea and a select, not Fields) behave the same.
  await page.getByLabel("Description", { exact: true }).fill("Light and quick.");
  await expect(page.getByText("Description is required")).toHaveCount(0);
  await page.getByLabel("Category", { exact: true }).selectOption("Gents");
  await expect(page.getByText(/^Choose a category/)).toHaveCount(0);
  await name.fill("");
  await submit.click();
  await expect(page.getByText("Name is required")).toBeVisible();
});
