import { useEffect, useRef, useState } from "react";

import { FormAlert } from "./Field";

export const SLIP_FAILED = "Failed to load bank slip";

function SlipImage({ src, alt }: { src: string; alt: string }) {
  const image = useRef<HTMLImageElement>(null);
  const [failed, setFailed] = useState(false);
  // An error before hydration fires no onError: look at the picture once React has it.
  useEffect(() => {
    const current = image.current;
    if (current?.complete && current.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) return <FormAlert>{SLIP_FAILED}</FormAlert>;
  return (
    <div className="flex justify-center rounded-xl bg-slate-100 p-2 dark:bg-slate-800">
      <img ref={image} src={src} alt={alt} onError={() => setFailed(true)} data-testid="slip-image" className="max-h-[70vh] w-auto max-w-full rounded-lg object-contain" />
    </div>
  );
}

/**
 * An order's bank slip as the admin reads it: a PDF in a frame (the slip's answer lets this site frame it), a picture
 * as a picture. Shared by the orders screen's slip modal and the order's own page.
 */
export function BankSlipViewer({ orderId, type }: { orderId: number; type: string | null }) {
  const src = `/api/orders/${orderId}/bank-slip`;
  if (type === "application/pdf") {
    return <iframe src={src} title={`Bank slip of order #${orderId} (PDF)`} data-testid="slip-pdf" className="h-[70vh] w-full rounded-xl border border-slate-200 bg-white dark:border-slate-700" />;
  }
  return <SlipImage src={src} alt={`Bank slip of order #${orderId}`} />;
}
