import { useEffect, useRef, useState, type ImgHTMLAttributes } from "react";

export const PLACEHOLDER_IMAGE = "/placeholder.svg";
export const IMAGE_SIZE = 640;

interface ProductImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "alt"> {
  src: string | null;
  alt: string;
}

/** A product picture with its size reserved (no layout shift); a missing or broken image shows the placeholder. */
export function ProductImage({ src, alt, loading = "lazy", ...props }: ProductImageProps) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    // An image that failed before hydration fired its error event before React listened.
    const img = ref.current;
    if (img?.complete && img.naturalWidth === 0 && img.src) setFailed(true);
  }, []);
  return (
    <img
      ref={ref}
      src={failed || !src ? PLACEHOLDER_IMAGE : src}
      alt={alt}
      width={IMAGE_SIZE}
      height={IMAGE_SIZE}
      loading={loading}
      decoding="async"
      onError={() => setFailed(true)}
      {...props}
    />
  );
}
