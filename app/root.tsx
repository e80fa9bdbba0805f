import { useEffect, type ReactNode } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useFetchers,
  useLocation,
  useMatches,
  useNavigation,
  useRouteLoaderData,
} from "react-router";

import appStylesheet from "./app.css?url";
import { useAppLinkNavigation } from "./components/AppLink";
import { ErrorPage, NotFoundPage, ProductsLoadError } from "./components/ErrorPage";
import { Footer, type ShopContact } from "./components/Footer";
import { NavBar } from "./components/NavBar";
import { useHistoryEntries } from "./components/historyEntries";
import { RouteAnnouncer } from "./components/RouteAnnouncer";
import { SignedInToast } from "./components/SignedInToast";
import { isTheme, type Theme } from "./lib/constants";
import { useNonce } from "./lib/nonce";
import { readTheme } from "./lib/theme.server";
import { bankDetails, deliveryNoteOf } from "./services/outbox.server";
import { cartCountOf, getOptionalUser } from "./services/session.server";
import type { Route } from "./+types/root";

// With a precedence React writes the stylesheet among the page's first resources, before the module preloads <Scripts>
// hoists into the head; without one it stays where <Links> renders it, after all of them, and the preloads' requests
// delay the first paint on a connection that takes six requests at a time.
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: appStylesheet, precedence: "default" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  // Both started at once: a visitor's cart count is read with the page's own batch (cartCountOf).
  const [user, cartCount] = await Promise.all([getOptionalUser(request, context), cartCountOf(request, context)]);
  return { user, cartCount, theme: readTheme(request), shop: shopContact(context.cloudflare.env) };
}

function shopContact(env: Env): ShopContact {
  const bank = bankDetails(env);
  return {
    phone: env.SHOP_PHONE?.trim() || null,
    email: env.SHOP_EMAIL?.trim() || null,
    deliveryNote: deliveryNoteOf(env),
    bankName: bank.name,
    legalName: bank.accountName,
  };
}

/** Screens that show no navigation bar declare `handle = { hideNav: true }`. */
export interface RouteHandle {
  hideNav?: boolean;
}

/** The theme the page should show: the one being saved right now, else the cookie's. */
function useTheme(): Theme {
  const data = useRouteLoaderData<typeof loader>("root");
  const pending = useFetchers().find((fetcher) => fetcher.key === "theme" && fetcher.formData)?.formData?.get("theme");
  return isTheme(pending) ? pending : (data?.theme ?? "light-theme");
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const theme = useTheme();
  return (
    // The theme by the spec's names (SPEC §3: light-theme, dark-theme), as a class and as data-theme, so styles and
    // scripts written for either find it; Tailwind's dark: variant keys on the class (app.css).
    <html lang="en" className={theme} data-theme={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={theme === "dark-theme" ? "#020617" : "#ffffff"} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

const PRODUCT_PATH = /^\/product\/\d+$/;

function Frame({ children }: { children: ReactNode }) {
  useAppLinkNavigation();
  useHistoryEntries();
  const data = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  const hideNav = matches.some((match) => (match.handle as RouteHandle | undefined)?.hideNav);
  // SPEC §3: a product page "shows 'Loading...' until loaded", from wherever the shopper opened it.
  const navigation = useNavigation();
  const here = useLocation().pathname;
  const loadingProduct = navigation.state === "loading" && PRODUCT_PATH.test(navigation.location.pathname) && navigation.location.pathname !== here;
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 dark:focus:bg-slate-900">
        Skip to content
      </a>
      {!hideNav && <NavBar user={data?.user ?? null} cartCount={data?.cartCount ?? 0} theme={data?.theme ?? "light-theme"} />}
      <main id="main" className="flex-1">
        {loadingProduct ? (
          <p role="status" className="mx-auto max-w-7xl px-4 py-24 text-center text-lg font-semibold sm:px-6">
            Loading...
          </p>
        ) : (
          children
        )}
      </main>
      {!hideNav && data?.shop && <Footer contact={data.shop} />}
      <RouteAnnouncer />
      <SignedInToast user={data?.user ?? null} />
    </div>
  );
}

export default function App() {
  useEffect(() => {
    // Lets end-to-end tests wait until clicks are handled by React rather than lost before hydration.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <Frame>
      <Outlet />
    </Frame>
  );
}

export function meta() {
  return [
    { title: "Stride | Shoes and accessories in Sri Lanka" },
    { name: "description", content: "Shop shoes for gents, ladies and kids, and accessories, with prices in LKR and bank transfer checkout." },
  ];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { pathname } = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Frame>
        <NotFoundPage />
      </Frame>
    );
  }
  // An admin's form posted without JavaScript after another tab logged in as a customer (adminFormRefusal).
  if (isRouteErrorResponse(error) && error.status === 409 && error.data?.renderedForRefused) {
    return (
      <Frame>
        <ErrorPage title="Nothing was changed" message={String(error.data.message)} action={{ to: pathname, label: "Reload the page" }} />
      </Frame>
    );
  }
  if (!isRouteErrorResponse(error)) console.error(error);
  // A grid whose load failed as a whole (the connection dropped: every loader of the request fails with it, the
  // root's too, so the error lands here) still shows the grid's own error image.
  if (pathname === "/") {
    return (
      <Frame>
        <ProductsLoadError />
      </Frame>
    );
  }
  return (
    <Frame>
      <ErrorPage title="Unexpected Application Error!" message="Something went wrong on our side. Please try again in a moment." />
    </Frame>
  );
}
