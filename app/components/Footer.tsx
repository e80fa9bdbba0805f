import { AppLink } from "./AppLink";

/** What the footer says of the shop: from the Worker's vars (wrangler.jsonc), each left out when empty. */
export interface ShopContact {
  phone: string | null;
  email: string | null;
  deliveryNote: string | null;
  /** The bank the shop is paid through, and the legal name its account is in. */
  bankName: string;
  legalName: string;
}

/** Every page's footer: how to reach the shop, how delivery and payment work, and the shopper's own links. */
export function Footer({ contact }: { contact: ShopContact }) {
  const linkClass = "inline-flex min-h-11 items-center hover:underline";
  // The lists are rows of 44 px (links a finger can hit), their words in the middle: pulled up by the 12 px above the
  // words, less the paragraph's 8 px, so each column's first line starts level with "Delivery and payment"'s. A label
  // before a link is such a row too, so the first line sits the same whether the link fits beside it or wraps under.
  const listClass = "-mt-1";
  const labelClass = "inline-flex min-h-11 items-center";
  return (
    <footer className="mt-8 border-t border-slate-200 bg-slate-50 text-sm text-slate-700 dark:border-slate-800 dark:bg-slate-900/60 dark:text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-3 sm:px-6">
        <section aria-labelledby="footer-help">
          <h2 id="footer-help" className="font-semibold text-slate-900 dark:text-white">
            Help
          </h2>
          <ul className={listClass}>
            {contact.phone && (
              <li className="flex flex-wrap gap-x-1">
                <span className={labelClass}>Call or WhatsApp</span>{" "}
                <a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`} className={`${linkClass} font-semibold`}>
                  {contact.phone}
                </a>
              </li>
            )}
            {contact.email && (
              <li className="flex flex-wrap gap-x-1">
                <span className={labelClass}>E-mail</span>{" "}
                <a href={`mailto:${contact.email}`} className={`${linkClass} font-semibold`}>
                  {contact.email}
                </a>
              </li>
            )}
            <li>
              <AppLink to="/orders" className={linkClass}>
                Where is my order?
              </AppLink>
            </li>
          </ul>
        </section>
        <section aria-labelledby="footer-delivery">
          <h2 id="footer-delivery" className="font-semibold text-slate-900 dark:text-white">
            Delivery and payment
          </h2>
          {contact.deliveryNote && <p className="mt-2">{contact.deliveryNote}</p>}
          <p className="mt-2">
            {`Pay by bank transfer to ${contact.bankName} and upload the slip at checkout; we confirm your order once it is matched.`}
          </p>
        </section>
        <section aria-labelledby="footer-shop">
          <h2 id="footer-shop" className="font-semibold text-slate-900 dark:text-white">
            Shop
          </h2>
          <ul className={listClass}>
            <li>
              <AppLink to="/" className={linkClass}>
                All products
              </AppLink>
            </li>
            <li>
              <AppLink to="/cart" className={linkClass}>
                Your cart
              </AppLink>
            </li>
          </ul>
        </section>
      </div>
      <p className="mx-auto max-w-7xl px-4 pb-8 text-xs text-slate-500 sm:px-6 dark:text-slate-400">
        {`© ${contact.legalName}. Prices in Sri Lankan rupees.`}
      </p>
    </footer>
  );
}
