import { randomBytes } from "node:crypto";

import { expect, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";

import { encodePng } from "../../scripts/images/png";
import { DEMO_ADMIN, gotoHydrated, SCREENSHOT_VIEWPORTS, uniqueUser } from "./helpers";
import { hasExif, jpegDimensions, jpegSegments, withExif } from "./photo-helpers";

// The checkout's bank slip prepared in the browser before it is sent (app/lib/prepare-picture.ts, BANK_SLIP_PICTURE):
// a phone photo of a slip over 10 MB, with an EXIF orientation and GPS position, is accepted and stored at most 2400 px
// a side, upright, without its EXIF; a PNG photo over 10 MB becomes a JPEG; a PDF over 10 MB is still refused with
// SPEC's message; Place Order pressed while the slip is prepared sends nothing. Screenshots of the checkout with a
// prepared slip, light and dark, 1280 and 390 wide, under /tmp/slip-shots (SHOTS_DIR).

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/slip-shots";
const MB = 1024 * 1024;
const SIZE_MESSAGE = "File size must be less than 10MB";

async function tokenOf(request: APIRequestContext, account: { email: string; password: string }): Promise<string> {
  const response = await request.post("/api/auth/login", { data: account });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/**
 * A new customer, logged in in the page's context, with one pair of a product of the test's own in the saved cart (so
 * no other test's stock moves); returns the admin's token and a clean-up.
 */
async function customerWithCart(page: Page, context: BrowserContext, request: APIRequestContext, baseURL: string) {
  const admin = await tokenOf(request, DEMO_ADMIN);
  const product = { name: `E2E Slip Loafer ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, brand: "E2E Brand", description: "Bought with a photographed slip.", price: 12500, category: "Gents", stockQuantity: 0, releaseDate: "2026-01-01", productAvailable: true, sizes: [{ label: "EU 42", stockQuantity: 5 }] };
  const picture = { name: "shoe.png", mimeType: "image/png", buffer: Buffer.from(encodePng(2, 2, new Uint8Array(16).fill(200))) };
  const created = await request.post("/api/product", { headers: { Authorization: `Bearer ${admin}` }, multipart: { product: JSON.stringify(product), imageFile: picture } });
  expect(created.status(), await created.text()).toBe(201);
  const shoe = (await created.json()) as { id: number; sizes: { id: number }[] };

  const user = uniqueUser();
  expect((await request.post("/api/auth/register", { data: user })).status()).toBe(201);
  const customer = await tokenOf(request, user);
  const added = await request.post(`/api/cart/add?productId=${shoe.id}&sizeId=${shoe.sizes[0].id}&quantity=1`, { headers: { Authorization: `Bearer ${customer}` } });
  expect(added.status(), await added.text()).toBe(200);
  await context.addCookies([{ name: "stride_session", value: customer, url: baseURL }]);
  return { admin, cleanUp: () => request.delete(`/api/product/${shoe.id}`, { headers: { Authorization: `Bearer ${admin}` } }).catch(() => undefined) };
}

/**
 * A phone photo of a bank slip, drawn by the browser's own canvas: a slip of paper with its printed lines (bank,
 * account, amount) on a desk, a red mark in the sensor's top left corner, and per-pixel noise (a sensor's grain) so
 * that it weighs what a phone photo weighs. Returned as JPEG bytes (no metadata yet).
 */
async function slipPhoto(page: Page, width: number, height: number, { noise = 70, quality = 0.95 } = {}): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ({ width, height, noise, quality }) => {
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext("2d")!;
      context.fillStyle = "#8a6a4a"; // the desk
      context.fillRect(0, 0, width, height);
      // The slip, slightly turned, as a hand holds a phone over it.
      // Sizes in hundredths of the slip's width, so the print fits the slip whichever way the photo is held.
      const unit = (width * 0.72) / 100;
      context.save();
      context.translate(width / 2, height / 2);
      context.rotate(-0.03);
      context.fillStyle = "#fbfaf5";
      context.fillRect(-width * 0.36, -height * 0.4, width * 0.72, height * 0.8);
      context.fillStyle = "#1d4ed8";
      context.fillRect(-width * 0.36, -height * 0.4, width * 0.72, unit * 9);
      context.fillStyle = "#ffffff";
      context.font = `bold ${unit * 4.5}px sans-serif`;
      context.fillText("BANK OF CEYLON  -  DEPOSIT SLIP", -width * 0.33, -height * 0.4 + unit * 6.2);
      context.fillStyle = "#1f2937";
      context.font = `${unit * 3.4}px monospace`;
      const lines = ["Account name   Stride Footwear (Pvt) Ltd", "Account no.    0071 2345 6789", "Branch         Colombo Fort", "Amount (LKR)   12,500.00", "Reference      STRIDE ORDER", "Date           2026-05-01  10:42"];
      lines.forEach((line, index) => context.fillText(line, -width * 0.32, -height * 0.4 + unit * (20 + index * 8)));
      context.strokeStyle = "#dc2626";
      context.lineWidth = unit;
      context.beginPath();
      context.arc(width * 0.22, height * 0.25, unit * 9, 0, Math.PI * 2);
      context.stroke();
      context.restore();
      context.fillStyle = "#dc1e1e"; // the sensor's top left corner
      context.fillRect(0, 0, width / 8, height / 8);
      const image = context.getImageData(0, 0, width, height);
      let seed = 7;
      const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
      for (let i = 0; i < image.data.length; i += 4) {
        const grain = (random() - 0.5) * noise;
        image.data[i] += grain;
        image.data[i + 1] += grain;
        image.data[i + 2] += grain;
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

/** An opaque PNG of random grain (3 bytes a pixel): PNG cannot compress it, as it barely compresses a photo saved as a PNG. */
function grainPng(width: number, height: number): Buffer {
  const rgba = new Uint8Array(randomBytes(width * height * 4));
  for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
  return Buffer.from(encodePng(width, height, rgba));
}

const ordersPosted = (page: Page) => {
  const posts: { url: string; bytes: number }[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === "POST" && (path === "/api/orders" || path.startsWith("/cart"))) posts.push({ url: path, bytes: request.postDataBuffer()?.length ?? 0 });
  });
  return posts;
};

test("a phone photo of a slip over 10 MB is prepared to 2400 px without its EXIF, and the order is placed; Place Order waits meanwhile", async ({ page, context, request, baseURL }) => {
  test.slow(); // a 24-megapixel photo is drawn, then decoded and encoded again in the page
  const { admin, cleanUp } = await customerWithCart(page, context, request, baseURL!);
  try {
    await gotoHydrated(page, "/cart?checkout");
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    // 6000 x 4000 as the sensor holds it, Orientation 6 (shown turned: 4000 x 6000), with a GPS position.
    const photo = Buffer.from(withExif(await slipPhoto(page, 6000, 4000), 6));
    expect(photo.length, "the photo is over SPEC's 10 MB").toBeGreaterThan(10 * MB);
    expect(hasExif(photo)).toBe(true);
    const posts = ordersPosted(page);
    const note = dialog.getByTestId("slip-note");
    await expect(note).toHaveAttribute("aria-live", "polite");

    // A first choice, a small scan, is ready at once (a light PNG without metadata is sent as chosen)...
    await dialog.getByLabel("Bank slip").setInputFiles({ name: "scan.png", mimeType: "image/png", buffer: Buffer.from(encodePng(3, 2, new Uint8Array(24).fill(240))) });
    await expect(note).toHaveText(/^As chosen, 3\sx\s2, \d+\sbytes$/);
    // ...then the photo is chosen instead, and Place Order pressed (a tap, then an Enter) in the same moment: neither
    // the photo unprepared nor the scan chosen before is sent meanwhile, and nothing is refused.
    const atOnce = await page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const input = document.querySelector<HTMLInputElement>('input[type="file"][name="bankSlip"]')!;
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], "IMG_3307.jpg", { type: "image/jpeg" }));
      input.files = transfer.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
      const button = input.form!.querySelector<HTMLButtonElement>('button[type="submit"]')!;
      input.form!.requestSubmit();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      button.click();
      input.form!.requestSubmit();
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const alert = input.form!.querySelector('[role="alert"]')?.textContent ?? null;
      return { label: button.textContent, ariaDisabled: button.getAttribute("aria-disabled"), disabled: button.disabled, busy: input.closest("[aria-busy]")?.getAttribute("aria-busy"), alert };
    }, photo.toString("base64"));
    // Not even refused ("Please upload a bank slip"): the presses are ignored while the slip is prepared.
    expect(atOnce).toEqual({ label: "Preparing slip...", ariaDisabled: "true", disabled: false, busy: "true", alert: null });
    await expect(note).toHaveText("Preparing your slip...");

    // Ready: the preview shows the prepared slip, and the quiet line says what was done.
    await expect(note).toHaveText(/^Resized to 1600\sx\s2400, \d+\sKB, metadata removed$/, { timeout: 30_000 });
    const preview = dialog.getByRole("img", { name: "Preview of your bank slip" });
    await expect.poll(() => preview.evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight])).toEqual([1600, 2400]);
    await expect(dialog.getByText(SIZE_MESSAGE)).toHaveCount(0);
    const placeOrder = dialog.getByRole("button", { name: /^Place Order/ });
    await expect(placeOrder).not.toHaveAttribute("aria-disabled");
    expect(posts, "the presses made while preparing sent nothing").toEqual([]);
    await expect(dialog.getByRole("alert")).toHaveCount(0);

    await placeOrder.click();
    await expect(dialog.getByRole("status")).toContainText(/Order #\d+ placed!/, { timeout: 15_000 });
    const orderId = (await dialog.getByRole("status").textContent())!.match(/Order #(\d+) placed!/)![1];
    expect(posts.map((post) => post.url)).toEqual(["/api/orders"]);
    expect(posts[0].bytes, "the request carried the prepared slip").toBeLessThan(photo.length);

    // The stored slip, as the admin's slip viewer fetches it.
    const answer = await request.get(`/api/orders/${orderId}/bank-slip`, { headers: { Authorization: `Bearer ${admin}` } });
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toBe("image/jpeg");
    const stored = await answer.body();
    const { width, height } = jpegDimensions(stored);
    expect(Math.max(width, height)).toBeLessThanOrEqual(2400);
    expect({ width, height }).toEqual({ width: 1600, height: 2400 });
    expect(stored.length).toBeLessThan(photo.length);
    expect(hasExif(stored), "no Exif segment (no GPS position) is stored").toBe(false);
    expect(jpegSegments(stored).some((segment) => segment.marker === 0xe1)).toBe(false);
    console.log(`slip photo ${photo.length} bytes 6000 x 4000 (Orientation 6, GPS) -> stored ${stored.length} bytes ${width} x ${height}`);

    // Upright: the red mark of the sensor's top left corner is, once turned 90° clockwise, at the top right.
    const corners = await page.evaluate(async (base64) => {
      const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: "image/jpeg" }));
      const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext("2d")!;
      context.drawImage(bitmap, 0, 0);
      const red = (x: number, y: number) => {
        const [r, g] = context.getImageData(x, y, 1, 1).data;
        return r > 170 && g < 90;
      };
      return { topRight: red(bitmap.width - 40, 40), topLeft: red(40, 40) };
    }, stored.toString("base64"));
    expect(corners).toEqual({ topRight: true, topLeft: false });
  } finally {
    await cleanUp();
  }
});

test("a PDF slip over 10 MB is still refused with SPEC's message; a PNG photo over 10 MB chosen next becomes a JPEG and is accepted", async ({ page, context, request, baseURL }) => {
  test.slow();
  const { cleanUp } = await customerWithCart(page, context, request, baseURL!);
  try {
    await gotoHydrated(page, "/cart?checkout");
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    const slip = dialog.getByLabel("Bank slip");
    const posts = ordersPosted(page);

    // A PDF is never touched: over 10 MB, it says so at once, and Place Order is unavailable (aria-disabled, saying
    // why): a press sends nothing and goes to the slip's field (tests/e2e/phone-checkout.spec.ts).
    const pdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(11 * MB)]);
    await slip.setInputFiles({ name: "statement.pdf", mimeType: "application/pdf", buffer: pdf });
    await expect(slip).toHaveAccessibleDescription(new RegExp(SIZE_MESSAGE));
    await expect(dialog.getByTestId("slip-note")).toHaveText("");
    const placeOrder = dialog.getByRole("button", { name: /^Place Order/ });
    await expect(placeOrder).toHaveAccessibleDescription(SIZE_MESSAGE);
    await placeOrder.click({ force: true });
    await expect(slip).toBeFocused();
    expect(posts).toEqual([]);

    // A photo saved as a PNG, over 10 MB but within 2400 px: re-encoded as a JPEG (never a WebP), and accepted.
    const png = grainPng(2300, 1700);
    expect(png.length).toBeGreaterThan(10 * MB);
    await slip.setInputFiles({ name: "slip.png", mimeType: "image/png", buffer: png });
    await expect(dialog.getByTestId("slip-note")).toHaveText(/^Compressed to [\d.]+\s(KB|MB)$/, { timeout: 30_000 });
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    await expect(dialog.getByText(SIZE_MESSAGE)).toHaveCount(0);
    await dialog.getByRole("button", { name: /^Place Order/ }).click();
    await expect(dialog.getByRole("status")).toContainText(/Order #\d+ placed!/, { timeout: 15_000 });
    expect(posts).toHaveLength(1);
    expect(posts[0].bytes).toBeLessThan(10 * MB);
    const orderId = (await dialog.getByRole("status").textContent())!.match(/Order #(\d+) placed!/)![1];
    const stored = await request.get(`/api/orders/${orderId}/bank-slip`, { headers: { Authorization: `Bearer ${await tokenOf(request, DEMO_ADMIN)}` } });
    expect(stored.headers()["content-type"]).toBe("image/jpeg");
    expect(jpegDimensions(await stored.body())).toEqual({ width: 2300, height: 1700 });
  } finally {
    await cleanUp();
  }
});

for (const { label, viewport, isMobile, hasTouch } of SCREENSHOT_VIEWPORTS) {
  test.describe(`screenshots ${label}`, () => {
    test.use({ viewport, isMobile, hasTouch });
    for (const theme of ["light", "dark"] as const) {
      test(`the checkout with a prepared slip (${theme})`, async ({ page, context, request, baseURL }) => {
        test.slow();
        await context.addCookies([{ name: "theme", value: `${theme}-theme`, url: baseURL! }]);
        const { cleanUp } = await customerWithCart(page, context, request, baseURL!);
        try {
          await gotoHydrated(page, "/cart?checkout");
          const dialog = page.getByRole("dialog", { name: "Checkout" });
          const photo = Buffer.from(withExif(await slipPhoto(page, 3000, 4000, { noise: 30, quality: 0.9 }), 1));
          await dialog.getByLabel("Bank slip").setInputFiles({ name: "IMG_3307.jpg", mimeType: "image/jpeg", buffer: photo });
          await expect(dialog.getByTestId("slip-note")).toHaveText(/^Resized to 1800\sx\s2400, /, { timeout: 20_000 });
          // The slip's field at the top of the screen, then the end of the dialog (its actions).
          await dialog.getByLabel("Bank slip").evaluate((input) => input.scrollIntoView({ block: "start" }));
          await page.screenshot({ path: `${SHOTS}/checkout-slip-${theme}-${label}.png` });
          await dialog.getByRole("button", { name: /^Place Order/ }).scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${SHOTS}/checkout-slip-end-${theme}-${label}.png` });
        } finally {
          await cleanUp();
        }
      });
    }
  });
}
