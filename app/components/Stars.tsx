import type { CSSProperties } from "react";

/**
 * Stars for a rating, read out as text, filled to the exact rating (4.3 fills four and a third). One element drawn
 * by the `stars` utility in app.css: a grid page shows dozens of these, and five SVGs each made it heavy to render.
 */
export function Stars({ rating, className = "" }: { rating: number; className?: string }) {
  const filled = `${(Math.min(5, Math.max(0, rating)) / 5) * 100}%`;
  return <span className={`stars ${className}`} role="img" aria-label={`${rating} out of 5 stars`} style={{ "--rating": filled } as CSSProperties} />;
}
