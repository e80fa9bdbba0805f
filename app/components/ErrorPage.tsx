import { Link } from "react-router";

/** `action`: where the page's button goes instead of the shop (an admin's page sends them back to their list). */
export function ErrorPage({ title, message, status, action = { to: "/", label: "Back to the shop" } }: { title: string; message: string; status?: number; action?: { to: string; label: string } }) {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-6 py-24 text-center">
      {status && <p className="text-6xl font-black tracking-tight text-brand-600 dark:text-brand-400">{status}</p>}
      <h1 className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-400">{message}</p>
      <Link to={action.to} className="btn-primary mt-8">
        {action.label}
      </Link>
    </section>
  );
}

export function NotFoundPage() {
  return <ErrorPage status={404} title="Page not found" message="We couldn't find the page you were looking for. It may have moved, or the address may be mistyped." />;
}

/** SPEC §3 and §8: the grid's own error image, when the products could not be loaded. */
export function ProductsLoadError() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-6 py-20 text-center">
      <svg viewBox="0 0 120 120" width="120" height="120" aria-hidden="true" className="text-slate-300 dark:text-slate-700">
        <rect x="10" y="24" width="100" height="72" rx="10" fill="none" stroke="currentColor" strokeWidth="6" />
        <path d="M30 80l20-24 14 16 10-12 16 20" fill="none" stroke="currentColor" strokeWidth="6" strokeLinejoin="round" />
        <path d="M22 18l76 84" stroke="#ef4444" strokeWidth="7" strokeLinecap="round" />
      </svg>
      <h1 className="mt-6 text-2xl font-bold">We couldn't load the products</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">Please check your connection and try again.</p>
      <Link to="/" reloadDocument className="btn-primary mt-6">
        Try again
      </Link>
    </div>
  );
}
