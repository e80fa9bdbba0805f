import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from "react";

import type { ProductImageView } from "~/lib/schemas/product";
import { IMAGE_SIZE, ProductImage } from "./ProductImage";

const ARROW_CLASS =
  "absolute top-1/2 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-slate-900 shadow-md hover:bg-white dark:bg-slate-900/90 dark:text-white dark:hover:bg-slate-900";

function Chevron({ left }: { left?: boolean }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" className="size-5">
      <path d={left ? "m15 6-6 6 6 6" : "m9 6 6 6-6 6"} />
    </svg>
  );
}

/**
 * The square picture is never taller than the screen under the sticky bar (less a line of the page): on a phone lying
 * down it filled three screens. There the gallery narrows to it, centred in its column, thumbnails under it.
 */
const FRAME = "mx-auto w-full max-w-[max(12rem,calc(100dvh-10rem))]";

/** How far (px) a finger must travel sideways, more than up or down, to count as a swipe. */
const SWIPE_MIN = 40;

/**
 * The product page's pictures: the chosen one large, the others as thumbnails below. Without JavaScript every
 * thumbnail and the previous/next arrows are links to `?image=n`, which the server renders. With it, they change the
 * picture in place (the URL follows, with replaceState, so a reload or a shared link shows the same picture), the
 * arrow keys, Home and End move along the thumbnails, and a sideways swipe on the picture shows the next or previous.
 * The thumbnails are then one Tab stop (a roving tabindex, as in the WAI-ARIA tabs and radio group patterns): the
 * chosen one takes the focus, and the arrows move it and the choice together.
 */
export function Gallery({
  images,
  fallbackUrl,
  label,
  initial,
  dimmed,
}: {
  images: ProductImageView[];
  /** The product's one picture when it has no list (rows written before pictures were many, or by the bench). */
  fallbackUrl: string | null;
  /** "{brand} {name}", the alt text of the fallback. */
  label: string;
  /** 0-based, from `?image=`. */
  initial: number;
  dimmed: boolean;
}) {
  const [selected, setSelected] = useState(initial);
  // Without JavaScript no arrow key moves along the thumbnails, so each must stay a Tab stop of its own until then.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const thumbs = useRef<(HTMLAnchorElement | null)[]>([]);
  const swipe = useRef<{ x: number; y: number } | null>(null);
  const count = images.length;
  // The list may have shrunk since (an admin removed pictures and the page revalidated).
  const current = Math.min(selected, count - 1);
  const picture = images[current];
  const imageClass = `aspect-square w-full object-contain ${dimmed ? "opacity-60 grayscale" : ""}`;

  if (!picture) {
    return (
      <div className={`${FRAME} overflow-hidden rounded-3xl bg-slate-100 dark:bg-slate-800`}>
        <ProductImage src={fallbackUrl} alt={label} loading="eager" fetchPriority="high" className={imageClass} />
      </div>
    );
  }

  const hrefOf = (index: number) => `?image=${index + 1}`;
  const show = (index: number, focus = false) => {
    const next = (index + count) % count;
    setSelected(next);
    const url = new URL(window.location.href);
    url.searchParams.set("image", String(next + 1));
    window.history.replaceState(window.history.state, "", url);
    if (focus) thumbs.current[next]?.focus();
  };
  const onLinkClick = (index: number) => (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    show(index);
  };
  // From the focused thumbnail, not the chosen picture: the arrows and the swipe change the choice, not the focus.
  const onThumbKey = (index: number) => (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1, Home: 0, End: count - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    show(moves[event.key], true);
  };
  const onPointerDown = (event: PointerEvent) => {
    swipe.current = { x: event.clientX, y: event.clientY };
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = swipe.current;
    swipe.current = null;
    if (!start || count < 2) return;
    const dx = event.clientX - start.x;
    if (Math.abs(dx) >= SWIPE_MIN && Math.abs(dx) > Math.abs(event.clientY - start.y)) show(current + (dx < 0 ? 1 : -1));
  };

  return (
    <div id="gallery" className={`${FRAME} min-w-0`}>
      {/* pan-y: the page still scrolls up and down under a finger; sideways movement is the gallery's. */}
      <div
        className="relative touch-pan-y select-none overflow-hidden rounded-3xl bg-slate-100 dark:bg-slate-800"
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (swipe.current = null)}
        data-testid="gallery-main"
      >
        <ProductImage
          key={picture.url}
          src={picture.url}
          alt={picture.alt}
          width={picture.width ?? IMAGE_SIZE}
          height={picture.height ?? IMAGE_SIZE}
          loading="eager"
          fetchPriority="high"
          draggable={false}
          className={imageClass}
        />
        {count > 1 && (
          <>
            <a href={hrefOf((current - 1 + count) % count)} onClick={onLinkClick(current - 1)} aria-label="Previous picture" className={`${ARROW_CLASS} left-3`}>
              <Chevron left />
            </a>
            <a href={hrefOf((current + 1) % count)} onClick={onLinkClick(current + 1)} aria-label="Next picture" className={`${ARROW_CLASS} right-3`}>
              <Chevron />
            </a>
            <p className="absolute bottom-3 right-3 rounded-full bg-slate-900/75 px-2.5 py-1 text-xs font-semibold text-white" aria-live="polite">
              {current + 1} / {count}
            </p>
          </>
        )}
      </div>
      {count > 1 && (
        <ul aria-label="Pictures" className="mt-3 flex gap-2 overflow-x-auto p-1">
          {images.map((image, index) => (
            <li key={image.id} className="shrink-0">
              <a
                ref={(element) => {
                  thumbs.current[index] = element;
                }}
                href={hrefOf(index)}
                onClick={onLinkClick(index)}
                onKeyDown={onThumbKey(index)}
                tabIndex={hydrated && index !== current ? -1 : undefined}
                aria-current={index === current ? "true" : undefined}
                // The chosen one: a border in the accent, the others faded (focused too: still not the chosen one).
                // The focus: a ring in the text's colour (slate-900, white on dark) with a gap, never the accent, so
                // it does not read as the choice.
                className={`block size-16 overflow-hidden rounded-xl border-2 bg-slate-100 outline-offset-2 focus-visible:outline-2 focus-visible:outline-slate-900 sm:size-20 short:size-16 dark:bg-slate-800 dark:focus-visible:outline-white ${
                  index === current
                    ? "border-brand-600 dark:border-brand-400"
                    : "border-transparent opacity-70 hover:border-slate-300 hover:opacity-100 dark:hover:border-slate-600"
                }`}
              >
                <ProductImage src={image.url} alt={image.alt} width={image.width ?? IMAGE_SIZE} height={image.height ?? IMAGE_SIZE} className="size-full object-cover" />
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
