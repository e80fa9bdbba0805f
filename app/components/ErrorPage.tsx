import { Link } from "react-router";

export function ErrorPage({ title, message, status }: { title: string; message: string; status?: number }) {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-6 py-24 text-center">
      {status && <p className="text-6xl font-black tracking-tight text-brand-600 dark:text-brand-400">{status}</p>}
      <h1 className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-400">{message}</p>
      <Link to="/" className="btn-primary mt-8">
        Back to the shop
      </Link>
    </section>
  );
}

export function NotFoundPage() {
  return <ErrorPage status={404} title="Page not found" message="We couldn't find the page you were looking for. It may have moved, or the address may be mistyped." />;
}
