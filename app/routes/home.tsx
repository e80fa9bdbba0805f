import type { Route } from "./+types/home";

// The product grid arrives with the catalogue issue; until then the home page welcomes shoppers.
export function loader(_: Route.LoaderArgs) {
  return null;
}

export default function Home() {
  return (
    <section className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Stride</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">Shoes and accessories for gents, ladies and kids.</p>
    </section>
  );
}
