import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";

import { PRODUCT_IMAGE_MAX_BYTES, PRODUCT_IMAGE_MESSAGES, PRODUCT_IMAGE_TYPES, sniffChosenFile } from "~/lib/file-types";
import { preparePicture, PRODUCT_PICTURE, type PreparedPicture } from "~/lib/prepare-picture";
import { CHOSEN_FILE } from "~/lib/kept-form";
import { ALT_TEXT_MAX, PICTURE_MESSAGES, PRODUCT_IMAGES_MAX } from "~/lib/product-images";
import type { ProductImageView } from "~/lib/schemas/product";
import { Field } from "./Field";
import { IMAGE_SIZE } from "./ProductImage";

const ACCEPT = PRODUCT_IMAGE_TYPES.join(",");
// Small print, yet 44 px tall: an admin also sorts pictures on a tablet, with a finger.
const SMALL_BUTTON = "btn-secondary px-3 text-xs";
// A picture marked Remove: its thumbnail fades and the box goes dashed; its words keep their contrast (WCAG AA).
const ROW = "group/picture flex gap-3 rounded-xl border border-slate-200 p-3 has-[.remove:checked]:border-dashed has-[.remove:checked]:border-slate-400 dark:border-slate-800 dark:has-[.remove:checked]:border-slate-600";
const FADED_WHEN_REMOVED = "group-has-[.remove:checked]/picture:opacity-40";
const THUMBNAIL = `size-20 shrink-0 rounded-lg bg-slate-100 object-cover dark:bg-slate-800 ${FADED_WHEN_REMOVED}`;
// A picture's alt text, small; not sent (disabled) while its picture is marked Remove, and looking so.
const ALT_FIELD = "[&_input]:min-h-9 [&_input]:py-1 [&_input]:text-sm [&_input:disabled]:cursor-not-allowed [&_input:disabled]:border-dashed [&_input:disabled]:bg-slate-50 dark:[&_input:disabled]:bg-slate-800/60 [&_label]:text-xs";

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
  onMove?: (from: number, to: number, action: string) => void;
  noScript?: ReactNode;
  /** The Remove box (none for a chosen picture where the input cannot be filled again). */
  remove?: { name?: string; value?: string; checked?: boolean; defaultChecked?: boolean; onChange: (checked: boolean) => void };
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
            ? MOVES.map((move) => {
                const to = move.to(index);
                return (
                  <button key={move.action} type="button" className={SMALL_BUTTON} disabled={to < 0 || to >= count || to === index} data-action={move.action} onClick={() => onMove(index, to, move.action)} aria-label={`${move.text}: ${label}`}>
                    {move.text}
                  </button>
                );
              })
            : noScript}
          {remove && (
            <label className="flex min-h-11 items-center gap-2">
              <input type="checkbox" name={remove.name} value={remove.value} checked={remove.checked} defaultChecked={remove.defaultChecked} onChange={(event) => remove.onChange(event.currentTarget.checked)} className="remove size-4 accent-red-600" aria-label={`Remove ${label}`} />
              Remove
            </label>
          )}
        </div>
      </div>
    </li>
  );
}

/** The pictures as the admin has them: the keys of the list's items in the order shown, and the chosen ones. */
interface Chosen {
  /** `current-{id}` for a saved picture, a preview's key for a chosen one; removed ones keep their place. */
  order: string[];
  previews: Preview[];
}
const currentKey = (id: number) => `current-${id}`;
const isCurrentKey = (key: string) => key.startsWith("current-");

/** The chosen files the form is to send, in the order shown: those not marked Remove. */
function filesOf({ order, previews }: Chosen): File[] {
  const byKey = new Map(previews.map((preview) => [preview.key, preview]));
  return order.flatMap((key) => {
    const preview = byKey.get(key);
    return preview && !preview.removed ? [preview.file] : [];
  });
}
const sameFiles = (a: File[], b: File[]) => a.length === b.length && a.every((file, index) => file === b[index]);

/**
 * The product forms' pictures, one list in the order they are saved (1 is the card's). The update form lists the
 * current ones, each with its alt text and a Remove box, and without JavaScript a position box and a "Make first" radio
 * (read by lib/product-form.server.ts; the new pictures then follow the current ones). New pictures come from one
 * multiple file input (all the add form has without JavaScript). With JavaScript each chosen picture is first prepared
 * (scaled down to 1600 px, its metadata removed: see lib/prepare-picture.ts) and the input is filled again (a
 * DataTransfer) with every chosen picture not removed, in the order shown, so the form sends what the list shows;
 * `onPreparing` tells the form meanwhile, so it does not send a file not yet prepared. A second choice adds to the
 * pictures already chosen (a phone adds one photo at a time), the "at most 8" message saying how many to remove when
 * they pass 8. Each chosen picture is previewed (a file that is no picture, or too large, says so), with an alt text,
 * a Remove box and Move up / Move down / Make first, among the current pictures too: the form sends the order shown
 * (one `order` field a picture), and the server stores exactly that order, a new picture first included. Where the
 * input cannot be filled again (no DataTransfer), the chosen pictures are shown as chosen, after the current ones,
 * without controls, and a new choice takes the place of the last, as the input itself does.
 */
export function PictureFields({
  images = [],
  isUpdate,
  errors,
  onPreparing,
  kept,
}: {
  images?: ProductImageView[];
  isUpdate: boolean;
  errors?: Record<string, string[] | undefined>;
  onPreparing?: (preparing: boolean) => void;
  /**
   * The form as it was posted before a session ended (app/lib/kept-form.ts): the current pictures' order, Remove boxes
   * and alt texts come back; the chosen files cannot, and the file input says so.
   */
  kept?: URLSearchParams | null;
}) {
  const [chosen, setChosen] = useState<Chosen>(() => {
    const all = images.map((image) => currentKey(image.id));
    const keptOrder = kept?.getAll("order").filter((key) => all.includes(key)) ?? [];
    return { order: [...keptOrder, ...all.filter((key) => !keptOrder.includes(key))], previews: [] };
  });
  const { order, previews } = chosen;
  /** The state as last set, for a choice prepared meanwhile to add to (its own render may be long gone). */
  const latest = useRef(chosen);
  /** The current pictures marked Remove (known with JavaScript; without, the server reads the boxes). */
  const [removedIds, setRemovedIds] = useState<ReadonlySet<number>>(() => new Set(kept?.getAll("remove").map(Number) ?? []));
  /** Whether the input can be filled again (DataTransfer): only then can chosen pictures be added to, removed or moved. */
  const [editable, setEditable] = useState(false);
  const editableNow = useRef(false);
  /** How many chosen pictures are being prepared (0: none). */
  const [preparing, setPreparing] = useState(0);
  const pending = useRef(0);
  /** The choices in the order made, prepared one after the other, each added when ready. */
  const queue = useRef<Promise<void>>(Promise.resolve());
  const input = useRef<HTMLInputElement | null>(null);
  const choices = useRef(0);
  /** The pictures of the last choice, whose notes the status line reads out. */
  const [lastChoice, setLastChoice] = useState<string[]>([]);

  /**
   * The pictures as the admin has them now: the input is filled again with the chosen ones kept, in the order shown,
   * when that changed; false (nothing changed) where the input cannot be filled.
   */
  const commit = (next: Chosen): boolean => {
    const files = filesOf(next);
    if (input.current && !sameFiles(files, filesOf(latest.current)) && !replaceFiles(input.current, files)) return false;
    latest.current = next;
    setChosen(next);
    return true;
  };

  const prepareChoice = async (target: HTMLInputElement, files: File[]) => {
    try {
      // One at a time: a phone decoding eight 12-megapixel photos at once could run out of memory.
      const prepared: PreparedPicture[] = [];
      for (const file of files) prepared.push(await preparePicture(file, PRODUCT_PICTURE));
      const choice = ++choices.current;
      const previewsOf = (sent: { file: File; note: string | null }[]) =>
        Promise.all(sent.map(async ({ file, note }, index) => ({ ...(await previewOf(file)), key: `new-${choice}-${index}`, file, note, removed: false })));
      const shown = await previewsOf(prepared);
      // Read after the awaits: the admin may have moved or removed pictures meanwhile.
      const now = latest.current;
      const currentOnly = now.order.filter(isCurrentKey);
      // Added to what was chosen before, once the input has shown it can be filled again; else in its place.
      const base: Chosen = editableNow.current ? now : { order: currentOnly, previews: [] };
      input.current = target;
      if (commit({ order: [...base.order, ...shown.map((preview) => preview.key)], previews: [...base.previews, ...shown] })) {
        editableNow.current = true;
      } else {
        // The input holds this choice's files as chosen, and sends them so: they are shown so, without controls.
        const unchanged = prepared.every((picture, index) => picture.file === files[index]);
        const asChosen = unchanged ? shown : await previewsOf(files.map((file) => ({ file, note: null })));
        if (!unchanged) shown.forEach((preview) => preview.url && URL.revokeObjectURL(preview.url));
        editableNow.current = false;
        latest.current = { order: [...currentOnly, ...asChosen.map((preview) => preview.key)], previews: asChosen };
        setChosen(latest.current);
      }
      setEditable(editableNow.current);
      setLastChoice(latest.current.previews.filter((preview) => preview.key.startsWith(`new-${choice}-`)).map((preview) => preview.key));
    } finally {
      // Never left waiting, whatever failed: the server judges what is sent.
      pending.current -= files.length;
      setPreparing(pending.current);
      if (pending.current === 0) onPreparing?.(false);
    }
  };

  const choose = (target: HTMLInputElement, files: File[]) => {
    input.current = target;
    if (!files.length) {
      // The picker closed without a choice (some browsers then empty the input): what was chosen stays, and is sent.
      if (editableNow.current) replaceFiles(target, filesOf(latest.current));
      return;
    }
    // Said at once (the form reads it on a submit in the same moment), before anything is read.
    pending.current += files.length;
    onPreparing?.(true);
    setPreparing(pending.current);
    queue.current = queue.current.then(() => prepareChoice(target, files));
  };

  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // The object URLs live as long as their picture is listed (a move or a Remove keeps them); leaving frees them.
  const urls = useRef<string[]>([]);
  useEffect(() => {
    const current = previews.flatMap((preview) => (preview.url ? [preview.url] : []));
    for (const url of urls.current) if (!current.includes(url)) URL.revokeObjectURL(url);
    urls.current = current;
  }, [previews]);
  useEffect(() => () => urls.current.forEach((url) => URL.revokeObjectURL(url)), []);

  const byId = new Map(images.map((image) => [image.id, image]));
  const previewByKey = new Map(previews.map((preview) => [preview.key, preview]));
  const isRemoved = (key: string) => (isCurrentKey(key) ? removedIds.has(Number(key.slice("current-".length))) : (previewByKey.get(key)?.removed ?? true));
  // Each picture's number in the order the save keeps (the ones marked Remove have none), and each chosen picture's
  // place among the files the input sends (`new-{n}` in the order sent, and its alt text's name).
  const numbers = new Map<string, number>();
  const fileIndex = new Map<string, number>();
  for (const key of order) {
    if (isRemoved(key)) continue;
    numbers.set(key, numbers.size + 1);
    if (!isCurrentKey(key)) fileIndex.set(key, fileIndex.size);
  }
  // A move keeps the focus on the moved picture (a moved element may lose it): its same button, or its other one where
  // that is disabled in its new place; and its new place is said.
  const fieldset = useRef<HTMLFieldSetElement>(null);
  const [lastMove, setLastMove] = useState<{ key: string; action: string } | null>(null);
  useEffect(() => {
    if (!lastMove) return;
    const item = fieldset.current?.querySelector(`[data-picture-key="${lastMove.key}"]`);
    (item?.querySelector<HTMLButtonElement>(`[data-action="${lastMove.action}"]:not(:disabled)`) ?? item?.querySelector<HTMLButtonElement>("[data-action]:not(:disabled)"))?.focus();
  }, [lastMove]);
  const move = (from: number, to: number, action: string) => {
    if (commit({ ...latest.current, order: moved(latest.current.order, from, to) })) setLastMove({ key: order[from], action });
  };
  const lastMoved = lastMove?.key;
  const nameOf = (key: string) => (isCurrentKey(key) ? byId.get(Number(key.slice("current-".length)))?.name : previewByKey.get(key)?.name);
  const movedNumber = lastMoved ? numbers.get(lastMoved) : undefined;

  const excess = numbers.size - PRODUCT_IMAGES_MAX;
  // One "at most 8" message: with JavaScript the form counts the pictures itself (below, gone as soon as they are 8
  // again), so the server's same words for the choice it refused are not shown beside it.
  const serverFileErrors = errors?.imageFiles ?? errors?.imageFile ?? errors?.images;
  // Memoised: a new list on every drawing would show the errors again after the admin changed the input (Field).
  const fileErrors = useMemo(() => (hydrated ? serverFileErrors?.filter((message) => message !== PICTURE_MESSAGES.tooMany) : serverFileErrors), [hydrated, serverFileErrors]);

  // Labels for the buttons: "picture 2" is the second saved picture listed, "new picture 1" the first chosen one.
  let currentCount = 0;
  let newCount = 0;
  const list = order.length > 0 && (
    <ol className="space-y-3" aria-label={isUpdate ? "Pictures" : "New pictures"}>
      {order.map((key, index) => {
        const removed = isRemoved(key);
        const sent = !removed && hydrated && isUpdate;
        if (isCurrentKey(key)) {
          const id = Number(key.slice("current-".length));
          const image = byId.get(id)!;
          const label = `picture ${++currentCount}`;
          return (
            <PictureItem
              key={key}
              pictureKey={key}
              testId="current-picture"
              thumbnail={<img src={image.url} alt={image.alt} width={image.width ?? IMAGE_SIZE} height={image.height ?? IMAGE_SIZE} className={THUMBNAIL} />}
              number={numbers.get(key) ?? null}
              name={image.name}
              index={index}
              count={order.length}
              label={label}
              onMove={hydrated ? move : undefined}
              noScript={
                <>
                  <label className="flex items-center gap-2">
                    Position
                    <input type="number" name={`position-${id}`} defaultValue={index + 1} min={1} max={PRODUCT_IMAGES_MAX} className="field-input w-16 py-1" />
                  </label>
                  <label className="flex min-h-11 items-center gap-2">
                    <input type="radio" name="first" value={id} defaultChecked={index === 0} className="size-4 accent-brand-600" />
                    Make first
                  </label>
                </>
              }
              remove={{
                name: "remove",
                value: String(id),
                defaultChecked: removedIds.has(id) || undefined,
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
              {/* With JavaScript, the order shown (new pictures among these): the position boxes are not drawn. */}
              {sent && <input type="hidden" name="order" value={key} />}
              <Field
                name={`altText-${id}`}
                label="Alt text"
                defaultValue={kept?.get(`altText-${id}`) ?? image.altText ?? ""}
                maxLength={ALT_TEXT_MAX}
                errors={errors?.[`altText-${id}`]}
                disabled={hydrated && removed}
                className={ALT_FIELD}
              />
            </PictureItem>
          );
        }
        const preview = previewByKey.get(key)!;
        const label = `new picture ${++newCount}`;
        const n = fileIndex.get(key);
        return (
          <PictureItem
            key={key}
            pictureKey={key}
            testId="new-picture"
            thumbnail={
              preview.url ? (
                <img src={preview.url} alt={`Preview of ${label}`} width={IMAGE_SIZE} height={IMAGE_SIZE} className={THUMBNAIL} />
              ) : (
                <span className={`${THUMBNAIL} border border-dashed border-red-300 dark:border-red-800`} aria-hidden="true" />
              )
            }
            number={numbers.get(key) ?? null}
            name={preview.name}
            index={index}
            count={order.length}
            label={label}
            onMove={editable ? move : undefined}
            remove={editable ? { checked: preview.removed, onChange: (checked) => commit({ ...latest.current, previews: latest.current.previews.map((item) => (item.key === key ? { ...item, removed: checked } : item)) }) } : undefined}
          >
            {sent && n !== undefined && <input type="hidden" name="order" value={`new-${n}`} />}
            {preview.url ? (
              <>
                {preview.note && (
                  <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="picture-note">
                    {preview.note}
                  </p>
                )}
                {/* Sent with the file it describes (`altText-new-{n}`, its place among the files sent); a removed one is not. */}
                <Field
                  id={`altText-${key}`}
                  name={n === undefined ? `altText-${key}` : `altText-new-${n}`}
                  label="Alt text"
                  maxLength={ALT_TEXT_MAX}
                  disabled={n === undefined}
                  errors={n === undefined ? undefined : errors?.[`altText-new-${n}`]}
                  className={ALT_FIELD}
                />
              </>
            ) : (
              <p role="alert" className="field-error mt-0" data-testid="picture-problem">
                {preview.problem}
              </p>
            )}
          </PictureItem>
        );
      })}
    </ol>
  );

  // Pictures were chosen before the session ended: no page can put them back into the input. Said until new ones are.
  const picturesLost = !!kept?.getAll(CHOSEN_FILE).some((field) => field === "imageFiles" || field === "imageFile") && previews.length === 0;
  const preparingText = `Preparing ${picturesWord(preparing)}...`;
  const fileInput = (
    <Field
      name="imageFiles"
      label={isUpdate ? "Add pictures" : "Pictures (the first is the card's)"}
      type="file"
      multiple
      accept={ACCEPT}
      required={!isUpdate}
      errors={fileErrors}
      // Without JavaScript the chosen files are not listed before the save, so they have no alt text field yet.
      hint={
        <>
          {`Up to ${PRODUCT_IMAGES_MAX} pictures in all; JPEG, PNG, WebP or GIF, at most 5 MB each.${hydrated ? "" : " Alt text can be added once they are saved."}`}
          {picturesLost && (
            <strong className="mt-1 block font-semibold text-amber-800 dark:text-amber-300" data-testid="pictures-lost">
              Choose the pictures again: they cannot be kept across a login.
            </strong>
          )}
        </>
      }
      onChange={(event) => choose(event.currentTarget, [...(event.currentTarget.files ?? [])])}
      className="[&_input]:py-2"
    />
  );
  const chosenCount = previews.length;

  return (
    // min-w-0: a fieldset is at least as wide as its content by default, which pushed phones sideways.
    <fieldset ref={fieldset} className="min-w-0 space-y-4" aria-busy={preparing > 0 || undefined}>
      {/* The add form's file input says "Pictures" itself. */}
      {isUpdate && <legend className="field-label">Pictures</legend>}
      <p className="sr-only" aria-live="polite">
        {lastMoved && movedNumber ? `${nameOf(lastMoved) ?? "The picture"} is now picture ${movedNumber} of ${numbers.size}.` : ""}
      </p>
      {isUpdate && list}
      {fileInput}
      {/* Always in the page, so that its words are read out when a choice passes 8 (Toast.tsx says why). */}
      <p role="status" className={excess > 0 ? "field-error" : undefined} data-testid="pictures-too-many">
        {excess > 0 ? `${PICTURE_MESSAGES.tooMany}, and ${numbers.size} are listed: remove ${excess} before saving.` : ""}
      </p>
      {/* What happened to the chosen pictures, read out politely once they are ready. */}
      <p className="sr-only" role="status" data-testid="pictures-status">
        {preparing > 0
          ? `${preparingText}`
          : lastChoice
              .map((key) => previewByKey.get(key))
              .filter((preview) => preview?.url && preview.note)
              .map((preview) => `${preview!.name}: ${preview!.note}.`)
              .join(" ")}
      </p>
      {preparing > 0 && (isUpdate || chosenCount > 0) ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-3 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400" aria-hidden="true">
          {preparingText}
        </p>
      ) : null}
      {!isUpdate &&
        (chosenCount > 0 ? (
          list
        ) : (
          <p className="flex aspect-[3/1] items-center justify-center rounded-2xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400" aria-hidden={preparing > 0 || undefined}>
            {preparing > 0 ? preparingText : "The pictures you choose show here."}
          </p>
        ))}
    </fieldset>
  );
}
