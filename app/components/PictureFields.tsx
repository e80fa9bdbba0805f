import { useEffect, useRef, useState } from "react";

import { PRODUCT_IMAGE_MAX_BYTES, PRODUCT_IMAGE_MESSAGES, PRODUCT_IMAGE_TYPES, sniffChosenFile } from "~/lib/file-types";
import { preparePicture, PRODUCT_PICTURE, type PreparedPicture } from "~/lib/prepare-picture";
import { ALT_TEXT_MAX, PICTURE_MESSAGES, PRODUCT_IMAGES_MAX } from "~/lib/product-images";
import type { ProductImageView } from "~/lib/schemas/product";
import { Field } from "./Field";
import { IMAGE_SIZE } from "./ProductImage";

const ACCEPT = PRODUCT_IMAGE_TYPES.join(",");
const SMALL_BUTTON = "btn-secondary min-h-9 px-3 text-xs";

/**
 * A chosen file as the form shows it before saving: its preview, or what the save would refuse it for; and what was
 * done to it (prepare-picture.ts), in a quiet line.
 */
type Preview = { url: string | null; name: string; problem?: string; note?: string | null };

// Judged as the server will judge it (its first bytes, its size), so the form warns of what the save would refuse.
async function previewOf(file: File): Promise<Preview> {
  const type = await sniffChosenFile(file);
  if (!type || !PRODUCT_IMAGE_TYPES.includes(type)) return { url: null, name: file.name, problem: PRODUCT_IMAGE_MESSAGES.type };
  if (file.size > PRODUCT_IMAGE_MAX_BYTES) return { url: null, name: file.name, problem: PRODUCT_IMAGE_MESSAGES.size };
  return { url: URL.createObjectURL(file), name: file.name };
}

/** Puts the prepared files in the input in place of the chosen ones, so the form posts them; false where it cannot. */
function replaceFiles(input: HTMLInputElement, files: File[]): boolean {
  try {
    const transfer = new DataTransfer();
    for (const file of files) transfer.items.add(file);
    input.files = transfer.files;
    return input.files.length === files.length;
  } catch {
    return false;
  }
}

const picturesWord = (count: number) => (count === 1 ? "1 picture" : `${count} pictures`);

/**
 * The product forms' pictures. The update form lists the current ones: each with its alt text, a Remove box, and
 * (without JavaScript) a position box and a "Make first" radio, read by lib/product-form.server.ts; with JavaScript,
 * Move up / Move down / Make first buttons reorder the list and the positions travel in hidden fields. New pictures
 * come from one multiple file input, previewed before they are sent (a file that is no picture, or too large, says so).
 * With JavaScript each chosen picture is first prepared (scaled down to 1600 px, its metadata removed: see
 * lib/prepare-picture.ts) and put back into the input in its place; `onPreparing` tells the form meanwhile, so it does
 * not send a file not yet prepared.
 */
export function PictureFields({
  images = [],
  isUpdate,
  errors,
  onPreparing,
}: {
  images?: ProductImageView[];
  isUpdate: boolean;
  errors?: Record<string, string[] | undefined>;
  onPreparing?: (preparing: boolean) => void;
}) {
  const [order, setOrder] = useState(() => images.map((image) => image.id));
  const [previews, setPreviews] = useState<Preview[]>([]);
  /** How many chosen pictures are being prepared (0: none). */
  const [preparing, setPreparing] = useState(0);
  const chosen = useRef<File[]>([]);
  const showPreviews = async (input: HTMLInputElement, files: File[]) => {
    chosen.current = files;
    // Said at once (the form reads it on a submit in the same moment), before anything is read.
    onPreparing?.(files.length > 0);
    setPreparing(files.length);
    setPreviews([]);
    try {
      // One at a time: a phone decoding eight 12-megapixel photos at once could run out of memory.
      const prepared: PreparedPicture[] = [];
      for (const file of files) {
        prepared.push(await preparePicture(file, PRODUCT_PICTURE));
        if (chosen.current !== files) return; // chosen again meanwhile: the newer choice is prepared and shown
      }
      const unchanged = prepared.every((picture, index) => picture.file === files[index]);
      // Where the input cannot take them, the chosen files are sent as they are, and shown as they are.
      const sent = unchanged || replaceFiles(input, prepared.map((picture) => picture.file)) ? prepared : files.map((file) => ({ file, note: null }));
      const shown = await Promise.all(sent.map(async ({ file, note }) => ({ ...(await previewOf(file)), note })));
      if (chosen.current !== files) return shown.forEach((preview) => preview.url && URL.revokeObjectURL(preview.url));
      setPreviews(shown);
    } finally {
      // Never left waiting, whatever failed: the server judges what is sent.
      if (chosen.current === files) {
        setPreparing(0);
        onPreparing?.(false);
      }
    }
  };
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => () => previews.forEach((preview) => preview.url && URL.revokeObjectURL(preview.url)), [previews]);
  const byId = new Map(images.map((image) => [image.id, image]));
  // A move keeps the focus on the moved picture (its button may be disabled in its new place: then its other one)
  // and says where it went.
  const list = useRef<HTMLOListElement>(null);
  const [moved, setMoved] = useState<{ id: number; action: string; at: number } | null>(null);
  useEffect(() => {
    if (!moved) return;
    const item = list.current?.querySelector(`[data-picture-id="${moved.id}"]`);
    (item?.querySelector<HTMLButtonElement>(`[data-action="${moved.action}"]:not(:disabled)`) ?? item?.querySelector<HTMLButtonElement>("[data-action]:not(:disabled)"))?.focus();
  }, [moved]);
  const move = (from: number, to: number, action: string) => {
    setOrder((ids) => {
      const next = ids.filter((_, index) => index !== from);
      next.splice(to, 0, ids[from]);
      return next;
    });
    setMoved({ id: order[from], action, at: to + 1 });
  };
  const fileErrors = errors?.imageFiles ?? errors?.imageFile ?? errors?.images;
  const tooMany = order.length + previews.length > PRODUCT_IMAGES_MAX;

  return (
    // min-w-0: a fieldset is at least as wide as its content by default, which pushed phones sideways.
    <fieldset className="min-w-0 space-y-4" aria-busy={preparing > 0 || undefined}>
      {/* The add form's file input says "Pictures" itself. */}
      {isUpdate && <legend className="field-label">Pictures</legend>}
      <p className="sr-only" aria-live="polite">
        {moved ? `${byId.get(moved.id)?.name ?? "The picture"} is now picture ${moved.at} of ${order.length}.` : ""}
      </p>
      {order.length > 0 && (
        <ol ref={list} className="space-y-3" aria-label="Current pictures">
          {order.map((id, index) => {
            const image = byId.get(id)!;
            const label = `picture ${index + 1}`;
            return (
              <li key={id} data-picture-id={id} className="flex gap-3 rounded-xl border border-slate-200 p-3 has-[.remove:checked]:opacity-50 dark:border-slate-800" data-testid="current-picture">
                <input type="hidden" name="picture" value={id} />
                <img src={image.url} alt={image.alt} width={image.width ?? IMAGE_SIZE} height={image.height ?? IMAGE_SIZE} className="size-20 shrink-0 rounded-lg bg-slate-100 object-cover dark:bg-slate-800" />
                <div className="min-w-0 flex-1 space-y-2">
                  <p className="truncate text-sm font-medium">
                    {index === 0 ? "1. The card's picture" : `${index + 1}.`} <span className="font-normal text-slate-600 dark:text-slate-400">{image.name}</span>
                  </p>
                  <Field name={`altText-${id}`} label="Alt text" defaultValue={image.altText ?? ""} maxLength={ALT_TEXT_MAX} className="[&_input]:min-h-9 [&_input]:py-1 [&_input]:text-sm [&_label]:text-xs" />
                  <div className="flex flex-wrap items-center gap-2 text-sm">
                    {hydrated ? (
                      <>
                        <input type="hidden" name={`position-${id}`} value={index + 1} />
                        <button type="button" className={SMALL_BUTTON} disabled={index === 0} data-action="up" onClick={() => move(index, index - 1, "up")} aria-label={`Move up: ${label}`}>
                          Move up
                        </button>
                        <button type="button" className={SMALL_BUTTON} disabled={index === order.length - 1} data-action="down" onClick={() => move(index, index + 1, "down")} aria-label={`Move down: ${label}`}>
                          Move down
                        </button>
                        <button type="button" className={SMALL_BUTTON} disabled={index === 0} data-action="first" onClick={() => move(index, 0, "first")} aria-label={`Make first: ${label}`}>
                          Make first
                        </button>
                      </>
                    ) : (
                      <>
                        <label className="flex items-center gap-2">
                          Position
                          <input type="number" name={`position-${id}`} defaultValue={index + 1} min={1} max={PRODUCT_IMAGES_MAX} className="field-input min-h-9 w-16 py-1" />
                        </label>
                        <label className="flex min-h-9 items-center gap-2">
                          <input type="radio" name="first" value={id} defaultChecked={index === 0} className="size-4 accent-brand-600" />
                          Make first
                        </label>
                      </>
                    )}
                    <label className="flex min-h-9 items-center gap-2">
                      <input type="checkbox" name="remove" value={id} className="remove size-4 accent-red-600" aria-label={`Remove ${label}`} />
                      Remove
                    </label>
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <Field
        name="imageFiles"
        label={isUpdate ? "Add pictures" : "Pictures (the first is the card's)"}
        type="file"
        multiple
        accept={ACCEPT}
        required={!isUpdate}
        errors={fileErrors}
        hint={`Up to ${PRODUCT_IMAGES_MAX} pictures in all; JPEG, PNG, WebP or GIF, at most 5 MB each.`}
        onChange={(event) => void showPreviews(event.currentTarget, [...(event.currentTarget.files ?? [])])}
        className="[&_input]:py-2"
      />
      {tooMany && (
        <p role="status" className="field-error">
          {PICTURE_MESSAGES.tooMany}: remove some before saving.
        </p>
      )}
      {/* What happened to the chosen pictures, read out politely once they are ready. */}
      <p className="sr-only" role="status" data-testid="pictures-status">
        {preparing > 0
          ? `Preparing ${picturesWord(preparing)}...`
          : previews
              .filter((preview) => preview.url && preview.note)
              .map((preview) => `${preview.name}: ${preview.note}.`)
              .join(" ")}
      </p>
      {preparing > 0 ? (
        <p className="flex aspect-[3/1] items-center justify-center rounded-2xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400" aria-hidden="true">
          Preparing {picturesWord(preparing)}...
        </p>
      ) : previews.length > 0 ? (
        <ul className="grid grid-cols-3 gap-2" aria-label="New pictures">
          {previews.map((preview, index) => (
            <li key={`${index}-${preview.name}`} className="overflow-hidden rounded-xl border border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
              {preview.url ? (
                <img src={preview.url} alt={`Preview of new picture ${index + 1}`} width={IMAGE_SIZE} height={IMAGE_SIZE} className="aspect-square w-full object-cover" />
              ) : (
                <p role="alert" className="field-error flex aspect-square items-center justify-center p-2 text-center" data-testid="picture-problem">
                  {preview.problem}
                </p>
              )}
              <div className="px-2 py-1 text-xs">
                <p className="truncate text-slate-600 dark:text-slate-400">{preview.name}</p>
                {preview.url && preview.note && (
                  <p className="text-slate-500 dark:text-slate-400" data-testid="picture-note">
                    {preview.note}
                  </p>
                )}
              </div>
            </li>
          ))}
        </ul>
      ) : (
        !isUpdate && <p className="flex aspect-[3/1] items-center justify-center rounded-2xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">The pictures you choose show here.</p>
      )}
    </fieldset>
  );
}
