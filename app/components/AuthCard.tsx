import type { ReactNode } from "react";
import { Link } from "react-router";

import { CloseIcon } from "./icons";

/** The modal-style card of the login, register and profile screens; its close button returns to the shop. */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="flex min-h-screen items-start justify-center bg-gradient-to-br from-brand-50 via-white to-slate-100 px-4 py-10 sm:items-center dark:from-slate-950 dark:via-slate-900 dark:to-slate-950">
      <div className="card relative w-full max-w-md p-6 shadow-xl sm:p-8">
        <Link
          to="/"
          aria-label="Close"
          className="absolute right-3 top-3 inline-flex size-11 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
        >
          <CloseIcon className="size-5" />
        </Link>
        <Link to="/" className="inline-flex items-center gap-2 text-lg font-extrabold tracking-tight">
          <span aria-hidden="true" className="inline-flex size-7 items-center justify-center rounded-lg bg-brand-600 text-sm text-white dark:bg-brand-400 dark:text-slate-950">
            S
          </span>
          Stride
        </Link>
        <h1 className="mt-4 text-2xl font-bold tracking-tight">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{subtitle}</p>}
        <div className="mt-6">{children}</div>
        {footer && <div className="mt-6 border-t border-slate-200 pt-4 text-center text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">{footer}</div>}
      </div>
    </div>
  );
}
