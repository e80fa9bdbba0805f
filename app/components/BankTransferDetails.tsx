import { useEffect, useState } from "react";

import { formatLkr } from "~/lib/format";

export interface Bank {
  name: string;
  branch: string;
  accountName: string;
  accountNumber: string;
}

/** How long "Copied" stays beside its button. */
export const COPIED_MS = 2000;

/**
 * What a banking app's fields take: the account number without the spaces that group it for reading (some apps refuse
 * them), the amount in plain figures with its cents ("12500.00", no "LKR", no commas).
 */
export const accountNumberToCopy = (accountNumber: string) => accountNumber.replace(/\s+/g, "");
export const amountToCopy = (rupees: number) => rupees.toFixed(2);

/**
 * A Copy button for one value, and its confirmation ("Copied"), read out politely. The confirmation's live region is
 * always in the page, each message a new node, so a second press is said again (Toast.tsx says why). The button only
 * appears once the page runs JavaScript in a browser that lets it write to the clipboard (an address served over plain
 * http has no navigator.clipboard): without it the value is still there to select. Its row keeps the button's height
 * from the first paint, so nothing moves when it appears.
 */
function CopyButton({ value, label }: { value: string; label: string }) {
  const [canCopy, setCanCopy] = useState(false);
  const [said, setSaid] = useState({ text: "", count: 0 });
  useEffect(() => setCanCopy(typeof navigator.clipboard?.writeText === "function"), []);
  useEffect(() => {
    if (!said.text) return;
    const timer = setTimeout(() => setSaid(({ count }) => ({ text: "", count })), COPIED_MS);
    return () => clearTimeout(timer);
  }, [said]);
  const say = (text: string) => setSaid(({ count }) => ({ text, count: count + 1 }));
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      say("Copied");
    } catch {
      // Refused by the browser (a permission, a page without the focus): the shopper selects it by hand.
      say("Could not copy");
    }
  }
  return (
    <>
      {canCopy && (
        // Named by its word first (WCAG 2.5.3, Label in Name), then what it copies: the dialog has two.
        <button type="button" onClick={copy} aria-label={`Copy ${label}`} className="btn-secondary">
          Copy
        </button>
      )}
      {/* aria-live, not role=status: the dialog's own status is its order's outcome ("Order #12 placed!"). */}
      <span aria-live="polite" className="text-xs font-semibold text-emerald-800 dark:text-emerald-300" data-testid="copy-status">
        <span key={said.count}>{said.text}</span>
      </span>
    </>
  );
}

/**
 * The shop's account for a bank transfer, and the amount to send when there is one: the account number and the amount
 * each with a Copy button, since the shopper types them into another app (their bank's) on the same phone.
 */
export function BankTransferDetails({ bank, amount }: { bank: Bank; amount?: number }) {
  const label = "text-slate-600 dark:text-slate-400";
  const copyRow = "flex min-h-11 flex-wrap items-center gap-x-3";
  return (
    <dl className="mt-4 grid gap-x-6 gap-y-1 sm:grid-cols-2" data-testid="bank-details">
      <div>
        <dt className={label}>Bank</dt>
        <dd className="font-medium">{bank.name}</dd>
      </div>
      <div>
        <dt className={label}>Branch</dt>
        <dd className="font-medium">{bank.branch}</dd>
      </div>
      <div>
        <dt className={label}>Account name</dt>
        <dd className="font-medium">{bank.accountName}</dd>
      </div>
      <div>
        <dt className={label}>Account number</dt>
        <dd className={copyRow}>
          <span className="font-mono font-semibold tracking-wide" data-testid="bank-account-number">
            {bank.accountNumber}
          </span>
          <CopyButton value={accountNumberToCopy(bank.accountNumber)} label="account number" />
        </dd>
      </div>
      {amount !== undefined && (
        <div>
          <dt className={label}>Amount to transfer</dt>
          <dd className={copyRow}>
            <span className="font-semibold" data-testid="bank-amount">
              {formatLkr(amount)}
            </span>
            <CopyButton value={amountToCopy(amount)} label="amount to transfer" />
          </dd>
        </div>
      )}
    </dl>
  );
}
