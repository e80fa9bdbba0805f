import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";

import { PRODUCT_IMAGE_MAX_BYTES, PRODUCT_IMAGE_MESSAGES, PRODUCT_IMAGE_TYPES, sniffChosenFile } from "~/lib/file-types";
import { preparePicture, PRODUCT_PICTURE, type PreparedPicture } from "~/lib/prepare-picture";
import { ALT_TEXT_MAX, PICTURE_MESSAGES, PRODUCT_IMAGES_MAX } from "~/lib/product-images";
import type { ProductImageView } from "~/lib/schemas/product";
import { Field } from "./Field";
import { IMAGE_SIZE } from "./ProductImage";

const ACCEPT = PRODUCT_IMAGE_TYPES.join(",");
const SMALL_BUTTON = "btn-secondary min-h-9 px-3 text-xs";
// A picture marked Remove: its thumbnail fades and the box goes dashed; its words keep their contrast (WCAG AA).
const ROW = "group/picture flex gap-3 rounded-xl border border-slate-200 p-3 has-[.remove:checked]:border-dashed has-[.remove:checked]:border-slate-400 dark:border-slate-800 dark:has-[.remove:checked]:border-slate-600";
const FADED_WHEN_REMOVED = "group-has-[.remove:checked]/picture:opacity-40";
const THUMBNAIL = `size-20 shrink-0 rounded-lg bg-slate-100 object-cover dark:bg-slate-800 ${FADED_WHEN_REMOVED}`;

/**
 * A chosen file as the form shows it before saving: its preview, or what the save would refuse it for; and what was
 * done to it (prepare-picture.ts), in a quiet line. `file` is the one the form sends, `key` names it in the list.
 */
type Preview = { key: string; file: File; url: string | null; name: string; problem?: string; note?: string | null; removed: boolean };

// Judged as the server will judge it (its first bytes, its size), so the form warns of what the save would refuse.
async function previewOf(file: File): Promise<Pick<Preview, "url" | "name" | "problem">> {
  const type = await sniffChosenFile(file);
  if (!type || !PRODUCT_IMAGE_TYPES.includes(type)) return { url: null, name: file.name, problem: PRODUCT_IMAGE_MESSAGES.type };
  if (file.size > PRODUCT_IMAGE_MAX_BYTES) return { url: null, name: file.name, problem: PRODUCT_IMAGE_MESSAGES.size };
  return { url: URL.createObjectURL(file), name: file.name };
}

/**
 * Puts these files in the input, in this order, in place of what it holds, so the form posts them (the prepared
 * pictures, then the ones not removed as ordered); false where the browser cannot (no DataTransfer).
 */
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

/** The list with the item at `from` put at `to`. */
function moved<T>(items: T[], from: number, to: number): T[] {
  const next = items.filter((_, index) => index !== from);
  next.splice(to, 0, items[from]);
  return next;
}

/** Where a move sends a picture: the button's name (its data-action) and the index it goes to. */
const MOVES = [
  { action: "up", text: "Move up", to: (index: number) => index - 1 },
  { action: "down", text: "Move down", to: (index: number) => index + 1 },
  { action: "first", text: "Make first", to: () => 0 },
] as const;

/**
 * One picture of either list (the saved ones of the update form, the chosen ones not yet saved): its thumbnail, its
 * number in the order it is saved in ("1. The card's picture"; a picture marked Remove has none), its name and what
 * else the list gives (an alt text, a note), then its controls: Move up / Move down / Make first (`onMove`, with
 * JavaScript; `noScript` stands in for them without) and the Remove box.
 */
function PictureItem({
  pictureKey,
  thumbnail,
  number,
  name,
  index,
  count,
  label,
  canMakeFirst = true,
  onMove,
  noScript,
  remove,
  testId,
  children,
}: {
  pictureKey: string;
  thumbnail: ReactNode;
  /** Its place among the pictures that are saved, 1 being the card's; null when it is marked Remove. */
  number: number | null;
  name: string;
  index: number;
  count: number;
  /** How its buttons name it: "picture 2", "new picture 2". */
  label: string;
  canMakeFirst?: boolean;
  onMove?: (from: number, to: number, action: string) => void;
  noScript?: ReactNode;
  /** The Remove box (none for a chosen picture where the input cannot be filled again). */
  remove?: { name?: string; value?: string; checked?: boolean; onChange: (checked: boolean) => void };
  testId: string;
  children?: ReactNode;
}) {
  return (
    <li data-picture-key={pictureKey} className={ROW} data-testid={testId}>
      {thumbnail}
      <div className="min-w-0 flex-1 space-y-2">
        <p className="truncate text-sm font-medium">
          {number === null ? "Removed:" : number === 1 ? "1. The card's picture" : `${number}.`} <span className="font-normal text-slate-600 group-has-[.remove:checked]/picture:line-through dark:text-slate-400">{name}</span>
        </p>
        {children}
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {onMove
            ? MOVES.filter((move) => move.action !== "first" || canMakeFirst).map((move) => {
                const to = move.to(index);
                return (
                  <button key={move.action} type="button" className={SMALL_BUTTON} disabled={to < 0 || to >= count || to === index} data-action={move.action} onClick={() => onMove(index, to, move.action)} aria-label={`${move.text}: ${label}`}>
                    {move.text}
                  </button>
                );
              })
            : noScript}
          {remove && (
            <label className="flex min-h-9 items-center gap-2">
              <input type="checkbox" name={remove.name} value={remove.value} checked={remove.checked} onChange={(event) => remove.onChange(event.currentTarget.checked)} className="remove size-4 accent-red-600" aria-label={`Remove ${label}`} />
              Remove
            </label>
          )}
        </div>
      </div>
    </li>
  );
}

/**
 * The product forms' pictures. The update form lists the current ones: each with its alt text, a Remove box, and
 * (without JavaScript) a position box and a "Make first" radio, read by lib/product-form.server.ts; with JavaScript,
 * Move up / Move down / Make first buttons reorder the list and the positions travel in hidden fields. New pictures
 * come from one multiple file input (all the add form has without JavaScript). With JavaScript each chosen picture is
 * first prepared (scaled down to 1600 px, its metadata removed: see lib/prepare-picture.ts) and put back into the
 * input in its place; `onPreparing` tells the form meanwhile, so it does not send a file not yet prepared. Then the
 * chosen pictures are listed like the saved ones, each previewed (a file that is no picture, or too large, says so)
 * with the same Remove box and Move buttons: the input is filled again with the pictures not removed, in the order
 * shown, so the form sends what the list shows. The server adds new pictures after the current ones, so on the update
 * form they move among themselves, and "Make first" is theirs only when no current picture stays.
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
  /** The current pictures marked Remove (known with JavaScript; without, the server reads the boxes). */
  const [removedIds, setRemovedIds] = useState<ReadonlySet<number>>(new Set());
  const [previews, setPreviews] = useState<Preview[]>([]);
  /** Whether the input can be filled again (DataTransfer): only then can chosen pictures be removed or moved. */
  const [editable, setEditable] = useState(false);
  /** How many chosen pictures are being prepared (0: none). */
  const [preparing, setPreparing] = useState(0);
  const input = useRef<HTMLInputElement | null>(null);
  const chosen = useRef<File[]>([]);
  const choices = useRef(0);
  const showPreviews = async (target: HTMLInputElement, files: File[]) => {
    input.current = target;
    chosen.current = files;
    const choice = ++choices.current;
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
      // Where the input cannot take them, the chosen files are sent as they are, and shown as they are (no controls).
      const replaced = files.length > 0 && replaceFiles(target, prepared.map((picture) => picture.file));
      const sent = unchanged || replaced ? prepared : files.map((file) => ({ file, note: null }));
      const shown = await Promise.all(sent.map(async ({ file, note }, index) => ({ ...(await previewOf(file)), key: `new-${choice}-${index}`, file, note, removed: false })));
      if (chosen.current !== files) return shown.forEach((preview) => preview.url && URL.revokeObjectURL(preview.url));
      setEditable(replaced);
      setPreviews(shown);
    } finally {
      // Never left waiting, whatever failed: the server judges what is sent.
      if (chosen.current === files) {
        setPreparing(0);
        onPreparing?.(false);
      }
    }
  };
  /** The chosen pictures as the admin has them now: the input is filled again with the ones kept, in their order. */
  const changePreviews = (next: Preview[]) => {
    if (!input.current || !replaceFiles(input.current, next.filter((preview) => !preview.removed).map((preview) => preview.file))) return;
    setPreviews(next);
  };
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // The object URLs live as long as the choice (a move or a Remove keeps them); a new choice or leaving frees them.
  const urls = useRef<string[]>([]);
  useEffect(() => {
    const current = previews.flatMap((preview) => (preview.url ? [preview.url] : []));
    for (const url of urls.current) if (!current.includes(url)) URL.revokeObjectURL(url);
    urls.current = current;
  }, [previews]);
  useEffect(() => () => urls.current.forEach((url) => URL.revokeObjectURL(url)), []);

  const byId = new Map(images.map((image) => [image.id, image]));
  // Each picture's number in the order the save keeps (the ones marked Remove have none): the current ones first, then
  // the new ones, as the server adds them.
  const numbers = new Map<string, number>();
  for (const key of [...order.filter((id) => !removedIds.has(id)).map((id) => `current-${id}`), ...previews.filter((preview) => !preview.removed).map((preview) => preview.key)]) {
    numbers.set(key, numbers.size + 1);
  }
  const keptCurrent = order.filter((id) => !removedIds.has(id)).length;
  // A move keeps the focus on the moved picture (a moved element may lose it): its same button, or its other one where
  // that is disabled in its new place; and its new place is said. The same for both lists.
  const fieldset = useRef<HTMLFieldSetElement>(null);
  const [lastMove, setLastMove] = useState<{ key: string; action: string } | null>(null);
  useEffect(() => {
    if (!lastMove) return;
    const item = fieldset.current?.querySelector(`[data-picture-key="${lastMove.key}"]`);
    (item?.querySelector<HTMLButtonElement>(`[data-action="${lastMove.action}"]:not(:disabled)`) ?? item?.querySelector<HTMLButtonElement>("[data-action]:not(:disabled)"))?.focus();
  }, [lastMove]);
  const moveCurrent = (from: number, to: number, action: string) => {
    setOrder((ids) => moved(ids, from, to));
    setLastMove({ key: `current-${order[from]}`, action });
  };
  const moveAdded = (from: number, to: number, action: string) => {
    changePreviews(moved(previews, from, to));
    setLastMove({ key: previews[from].key, action });
  };
  const lastMoved = lastMove?.key;
  const movedName = lastMoved?.startsWith("current-") ? byId.get(Number(lastMoved.slice("current-".length)))?.name : previews.find((preview) => preview.key === lastMoved)?.name;
  const movedNumber = lastMoved ? numbers.get(lastMoved) : undefined;

  const tooMany = numbers.size > PRODUCT_IMAGES_MAX;
  // One "at most 8" message: with JavaScript the form counts the pictures itself (below, gone as soon as they are 8
  // again), so the server's same words for the choice it refused are not shown beside it.
  const serverFileErrors = errors?.imageFiles ?? errors?.imageFile ?? errors?.images;
  // Memoised: a new list on every drawing would show the errors again after the admin changed the input (Field).
  const fileErrors = useMemo(() => (hydrated ? serverFileErrors?.filter((message) => message !== PICTURE_MESSAGES.tooMany) : serverFileErrors), [hydrated, serverFileErrors]);

  return (
    // min-w-0: a fieldset is at least as wide as its content by default, which pushed phones sideways.
    <fieldset ref={fieldset} className="min-w-0 space-y-4" aria-busy={preparing > 0 || undefined}>
      {/* The add form's file input says "Pictures" itself. */}
      {isUpdate && <legend className="field-label">Pictures</legend>}
      <p className="sr-only" aria-live="polite">
        {lastMoved && movedNumber ? `${movedName ?? "The picture"} is now picture ${movedNumber} of ${numbers.size}.` : ""}
      </p>
      {order.length > 0 && (
        <ol className="space-y-3" aria-label="Current pictures">
          {order.map((id, index) => {
            const image = byId.get(id)!;
            return (
              <PictureItem
                key={id}
                pictureKey={`current-${id}`}
                testId="current-picture"
                thumbnail={<img src={image.url} alt={image.alt} width={image.width ?? IMAGE_SIZE} height={image.height ?? IMAGE_SIZE} className={THUMBNAIL} />}
                number={numbers.get(`current-${id}`) ?? null}
                name={image.name}
                index={index}
                count={order.length}
                label={`picture ${index + 1}`}
                onMove={hydrated ? moveCurrent : undefined}
                noScript={
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
                }
                remove={{
                  name: "remove",
                  value: String(id),
                  onChange: (checked) =>
                    setRemovedIds((ids) => {
                      const next = new Set(ids);
                      if (checked) next.add(id);
                      else next.delete(id);
                      return next;
                    }),
                }}
              >
                <input type="hidden" name="picture" value={id} />
                {hydrated && <input type="hidden" name={`position-${id}`} value={index + 1} />}
                <Field name={`altText-${id}`} label="Alt text" defaultValue={image.altText ?? ""} maxLength={ALT_TEXT_MAX} className="[&_input]:min-h-9 [&_input]:py-1 [&_input]:text-sm [&_label]:text-xs" />
              </PictureItem>
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
        <p role="status" className="field-error" data-testid="pictures-too-many">
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
        <ol className="space-y-3" aria-label="New pictures">
          {previews.map((preview, index) => (
            <PictureItem
              key={preview.key}
              pictureKey={preview.key}
              testId="new-picture"
              thumbnail={
                preview.url ? (
                  <img src={preview.url} alt={`Preview of new picture ${index + 1}`} width={IMAGE_SIZE} height={IMAGE_SIZE} className={THUMBNAIL} />
                ) : (
                  <span className={`${THUMBNAIL} border border-dashed border-red-300 dark:border-red-800`} aria-hidden="true" />
                )
              }
              number={numbers.get(preview.key) ?? null}
              name={preview.name}
              index={index}
              count={previews.length}
              label={`new picture ${index + 1}`}
              canMakeFirst={keptCurrent === 0}
              onMove={editable ? moveAdded : undefined}
              remove={editable ? { checked: preview.removed, onChange: (checked) => changePreviews(previews.map((item) => (item === preview ? { ...item, removed: checked } : item))) } : undefined}
            >
              {preview.url ? (
                preview.note && (
                  <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="picture-note">
                    {preview.note}
                  </p>
                )
              ) : (
                <p role="alert" className="field-error mt-0" data-testid="picture-problem">
                  {preview.problem}
                </p>
              )}
            </PictureItem>
          ))}
        </ol>
      ) : (
        !isUpdate && <p className="flex aspect-[3/1] items-center justify-center rounded-2xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">The pictures you choose show here.</p>
      )}
    </fieldset>
  );
}
