import { randomBytes } from "node:crypto";

import { expect, test, type Page } from "@playwright/test";

import { encodePng } from "../../scripts/images/png";
import { logInAs } from "./admin-helpers";
import { gotoHydrated, SCREENSHOT_VIEWPORTS } from "./helpers";
import { hasExif, jpegDimensions, jpegSegments, withExif } from "./photo-helpers";

// Pictures prepared in the browser before the product forms send them (app/lib/prepare-picture.ts): a phone photo
// over 5 MB with an EXIF orientation and GPS position is stored at most 1600 px a side, upright, without its EXIF; a
// PNG with transparency stays transparent (a WebP); a PDF is refused as before. Screenshots of the add form with
// prepared pictures, light and dark, 1280 and 390 wide, under /tmp/prepare-shots (SHOTS_DIR).

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/prepare-shots";
const PICTURES_LABEL = "Pictures (the first is the card's)";
const TYPE_MESSAGE = "Image must be a JPEG, PNG, WebP or GIF picture";
const MB = 1024 * 1024;

interface SavedImage {
  url: string;
  width: number | null;
  height: number | null;
  type: string;
  name: string;
}

/**
 * A camera-like JPEG drawn by the browser's own canvas: a warm gradient, a dark sole-like band, a red mark in the top
 * left corner and per-pixel noise (a sensor's grain), so that it weighs what a phone photo weighs.
 */
async function cameraJpeg(page: Page, width: number, height: number, { noise = 70, quality = 0.95 } = {}): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ({ width, height, noise, quality }) => {
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext("2d")!;
      const image = context.createImageData(width, height);
      let seed = 7;
      const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
      for (let y = 0; y < height; y++) {
        const sole = y > height * 0.6 && y < height * 0.75;
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 4;
          const grain = (random() - 0.5) * noise;
          const mark = x < width / 8 && y < height / 8;
          image.data[i] = (mark ? 220 : sole ? 40 : 200 - (60 * y) / height) + grain;
          image.data[i + 1] = (mark ? 30 : sole ? 40 : 150 + (50 * x) / width) + grain;
          image.data[i + 2] = (mark ? 30 : sole ? 50 : 110 + (40 * y) / height) + grain;
          image.data[i + 3] = 255;
        }
      }
      context.putImageData(image, 0, 0);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((made) => resolve(made!), "image/jpeg", quality));
      const url = await new Promise<string>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result as string);
        reader.readAsDataURL(blob);
      });
      return url.slice(url.indexOf(",") + 1);
    },
    { width, height, noise, quality },
  );
  return Buffer.from(base64, "base64");
}

/** A PNG with a transparent background and an opaque shoe-coloured disc (alpha kept: colour type 6). */
function transparentPng(width: number, height: number): Buffer {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = (x - width / 2) / (width / 2);
      const dy = (y - height / 2) / (height / 2);
      if (dx * dx + dy * dy < 0.8) rgba.set([30 + (x % 7), 90, 200 - (y % 11), 255], (y * width + x) * 4);
    }
  }
  return Buffer.from(encodePng(width, height, rgba));
}

/** An opaque PNG with a grain that PNG compresses badly, as it does a photo saved as a PNG. */
function opaquePng(width: number, height: number): Buffer {
  const rgba = new Uint8Array(width * height * 4);
  const grain = randomBytes(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const g = (grain[y * width + x] % 48) - 24;
      rgba.set([150 + g + (x % 40), 110 + g, 90 + g + (y % 30), 255], (y * width + x) * 4);
    }
  }
  return Buffer.from(encodePng(width, height, rgba));
}

async function fillProductFields(page: Page, name: string): Promise<void> {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Brand", { exact: true }).fill("Camera Roll");
  await page.getByLabel("Description", { exact: true }).fill("Photographed on a phone, in the shop.");
  await page.getByLabel("Price (LKR)", { exact: true }).fill("8990");
  await page.getByLabel("Category", { exact: true }).selectOption("Gents");
  await page.getByLabel("Stock of size 1", { exact: true }).fill("2");
  await page.getByLabel("Release date", { exact: true }).fill("2026-05-01");
}

const savedImages = async (page: Page, id: number) => ((await (await page.request.get(`/api/product/${id}`)).json()) as { images: SavedImage[] }).images;
const idFromUrl = (page: Page) => Number(new URL(page.url()).pathname.split("/").pop());

test("a phone photo over 5 MB is scaled to 1600 px, turned upright and stripped of its EXIF before the form sends it", async ({ page }) => {
  test.slow(); // a 12-megapixel photo is drawn, then decoded and encoded again in the page
  await logInAs(page);
  await gotoHydrated(page, "/add_product");
  const name = `E2E Phone Photo ${Date.now().toString(36)}`;
  let id: number | undefined;
  try {
    // 4000 x 3000 as the sensor holds it, Orientation 6 (shown turned: 3000 x 4000), with a GPS position.
    const photo = withExif(await cameraJpeg(page, 4000, 3000), 6);
    expect(photo.length, "the photo is over the 5 MB rule").toBeGreaterThan(5 * MB);
    expect(hasExif(photo)).toBe(true);
    await fillProductFields(page, name);

    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/add_product")) posts.push(request.url());
    });
    // Chosen, and the form submitted in the same moment (an Enter, a quick tap): the save must wait for the picture.
    const atOnce = await page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const input = document.querySelector<HTMLInputElement>('input[type="file"][name="imageFiles"]')!;
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], "IMG_2041.jpg", { type: "image/jpeg" }));
      input.files = transfer.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
      input.form!.requestSubmit();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const button = input.form!.querySelector<HTMLButtonElement>('button[type="submit"]')!;
      return { label: button.textContent, ariaDisabled: button.getAttribute("aria-disabled") };
    }, Buffer.from(photo).toString("base64"));
    expect(atOnce).toEqual({ label: "Preparing pictures...", ariaDisabled: "true" });
    await expect(page.getByTestId("pictures-status")).toHaveText("Preparing 1 picture...");

    // Ready: the preview shows the prepared picture, and says what was done (also to screen readers).
    await expect(page.getByTestId("picture-note")).toHaveText(/^Resized to 1200\sx\s1600, \d+\sKB, metadata removed$/, { timeout: 20_000 });
    await expect(page.getByTestId("pictures-status")).toHaveText(/^IMG_2041\.jpg: Resized to 1200\sx\s1600, \d+\sKB, metadata removed\.$/);
    const preview = page.getByRole("img", { name: "Preview of new picture 1" });
    await expect.poll(() => preview.evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight])).toEqual([1200, 1600]);
    await expect(page.getByTestId("picture-problem")).toHaveCount(0);
    const button = page.getByRole("button", { name: "Add Product", exact: true });
    await expect(button).not.toHaveAttribute("aria-disabled");
    expect(posts, "the submit made while preparing sent nothing").toEqual([]);
    // The input now holds the prepared file: the form posts it as it always posted the chosen one.
    const inInput = await page.locator('input[name="imageFiles"]').evaluate((input: HTMLInputElement) => Array.from(input.files!).map((file) => ({ name: file.name, type: file.type, size: file.size })));
    expect(inInput).toHaveLength(1);
    expect(inInput[0]).toMatchObject({ name: "IMG_2041.jpg", type: "image/jpeg" });
    expect(inInput[0].size).toBeLessThan(photo.length);

    await button.click();
    await expect(page).toHaveURL(/\/product\/\d+\?saved=1$/);
    id = idFromUrl(page);
    expect(posts).toHaveLength(1);

    const [image] = await savedImages(page, id);
    expect(image).toMatchObject({ width: 1200, height: 1600, type: "image/jpeg", name: "IMG_2041.jpg" });
    const stored = await (await page.request.get(image.url)).body();
    expect(jpegDimensions(stored)).toEqual({ width: 1200, height: 1600 });
    expect(stored.length).toBeLessThan(photo.length);
    expect(stored.length).toBeLessThan(5 * MB);
    expect(hasExif(stored), "no Exif segment (no GPS position, no orientation) is served").toBe(false);
    expect(jpegSegments(stored).some((segment) => segment.marker === 0xe1)).toBe(false);
    console.log(`photo ${photo.length} bytes 4000 x 3000 (Orientation 6, GPS) -> stored ${stored.length} bytes 1200 x 1600`);

    // Upright: the red mark of the sensor's top left corner is, once turned 90° clockwise, at the top right.
    const corners = await page.evaluate(async (url) => {
      const bitmap = await createImageBitmap(await (await fetch(url)).blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext("2d")!;
      context.drawImage(bitmap, 0, 0);
      const red = (x: number, y: number) => {
        const [r, g] = context.getImageData(x, y, 1, 1).data;
        return r > 170 && g < 90;
      };
      return { topRight: red(bitmap.width - 40, 40), topLeft: red(40, 40) };
    }, image.url);
    expect(corners).toEqual({ topRight: true, topLeft: false });
  } finally {
    if (id !== undefined) await page.request.delete(`/api/product/${id}`).catch(() => undefined);
  }
});

test("the update form prepares added pictures too: a transparent PNG stays transparent (WebP), an opaque one becomes a JPEG", async ({ page }) => {
  test.slow();
  await logInAs(page);
  const product = JSON.stringify({ name: `E2E Update Pictures ${Date.now().toString(36)}`, brand: "Camera Roll", description: "Pictures added later.", price: 4990, category: "Accessories", stockQuantity: 3, releaseDate: "2026-05-01", productAvailable: true });
  const created = await page.request.post("/api/product", { multipart: { product, imageFile: { name: "first.png", mimeType: "image/png", buffer: opaquePng(40, 40) } } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  try {
    await gotoHydrated(page, `/product/update/${id}`);
    const transparent = transparentPng(2400, 1200);
    const opaque = opaquePng(900, 900);
    expect(opaque.length, "the opaque PNG weighs more than 600 KB").toBeGreaterThan(600 * 1024);
    await page.getByLabel("Add pictures", { exact: true }).setInputFiles([
      { name: "logo.png", mimeType: "image/png", buffer: transparent },
      { name: "studio.png", mimeType: "image/png", buffer: opaque },
    ]);
    await expect(page.getByTestId("picture-note")).toHaveText([/^Resized to 1600\sx\s800, \d+\sKB$/, /^Compressed to \d+\sKB$/], { timeout: 20_000 });
    await page.getByRole("button", { name: "Update Product", exact: true }).click();
    await expect(page).toHaveURL(`/product/${id}?saved=1`);

    const [, logo, studio] = await savedImages(page, id);
    expect(logo).toMatchObject({ name: "logo.webp", type: "image/webp", width: 1600, height: 800 });
    expect(studio).toMatchObject({ name: "studio.jpg", type: "image/jpeg", width: 900, height: 900 });
    const alpha = await page.evaluate(async (url) => {
      const bitmap = await createImageBitmap(await (await fetch(url)).blob());
      const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext("2d")!;
      context.drawImage(bitmap, 0, 0);
      return { corner: context.getImageData(2, 2, 1, 1).data[3], centre: context.getImageData(bitmap.width / 2, bitmap.height / 2, 1, 1).data[3] };
    }, logo.url);
    expect(alpha).toEqual({ corner: 0, centre: 255 });
    expect((await (await page.request.get(studio.url)).body()).length).toBeLessThan(opaque.length);
  } finally {
    await page.request.delete(`/api/product/${id}`).catch(() => undefined);
  }
});

test("a PDF is still refused with today's message, in the form and by the server", async ({ page }) => {
  await logInAs(page);
  await gotoHydrated(page, "/add_product");
  const name = `E2E Not A Picture ${Date.now().toString(36)}`;
  await fillProductFields(page, name);
  await page.getByLabel(PICTURES_LABEL, { exact: true }).setInputFiles({ name: "catalogue.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%\xe2\xe3\n1 0 obj\n<<>>\nendobj\n", "latin1") });
  await expect(page.getByTestId("picture-problem")).toHaveText(TYPE_MESSAGE);
  await expect(page.getByTestId("picture-note")).toHaveCount(0);
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: "Add Product", exact: true }).click();
  expect((await answer).status()).toBeGreaterThanOrEqual(400);
  await expect(page).toHaveURL("/add_product");
  await expect(page.locator("#imageFiles-error")).toHaveText(new RegExp(TYPE_MESSAGE));
  const found = (await (await page.request.get(`/api/products/search?${new URLSearchParams({ keyword: name })}`)).json()) as unknown[];
  expect(found).toEqual([]);
});

for (const { label, viewport, isMobile, hasTouch } of SCREENSHOT_VIEWPORTS) {
  test.describe(`screenshots ${label}`, () => {
    test.use({ viewport, isMobile, hasTouch });
    for (const theme of ["light", "dark"] as const) {
      test(`the add form with prepared pictures (${theme})`, async ({ page, context, baseURL }) => {
        await context.addCookies([{ name: "theme", value: `${theme}-theme`, url: baseURL! }]);
        await logInAs(page);
        await gotoHydrated(page, "/add_product");
        const photo = withExif(await cameraJpeg(page, 3200, 2400, { noise: 30, quality: 0.9 }), 1);
        await page.getByLabel(PICTURES_LABEL, { exact: true }).setInputFiles([
          { name: "IMG_2041.jpg", mimeType: "image/jpeg", buffer: Buffer.from(photo) },
          { name: "logo.png", mimeType: "image/png", buffer: transparentPng(1800, 1200) },
          { name: "swatch.png", mimeType: "image/png", buffer: opaquePng(60, 40) },
        ]);
        await expect(page.getByTestId("picture-note")).toHaveCount(3, { timeout: 20_000 });
        await page.screenshot({ path: `${SHOTS}/add-prepared-${theme}-${label}.png`, fullPage: true });
        await page.getByRole("list", { name: "New pictures" }).screenshot({ path: `${SHOTS}/add-prepared-previews-${theme}-${label}.png` });
      });
    }
  });
}
