import { Link, useLoaderData } from "react-router";

import { FormAlert } from "~/components/Field";
import type { Role } from "~/lib/constants";
import type { PublicUser } from "~/lib/schemas/auth";
import { listUsers } from "~/services/auth.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/users";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  try {
    // listUsers reads the public columns only: a password hash never reaches the page.
    return { users: await listUsers(context.db), error: null };
  } catch (error) {
    console.error("Admin users: reading the users failed", error);
    return { users: [] as PublicUser[], error: "Failed to load users" };
  }
}

function RoleBadge({ role }: { role: Role }) {
  const admin = role === "ROLE_ADMIN";
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${
        admin
          ? "bg-violet-100 text-violet-900 ring-violet-300 dark:bg-violet-400/15 dark:text-violet-200 dark:ring-violet-400/40"
          : "bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-700"
      }`}
    >
      {admin ? "Admin" : "Customer"}
      <span className="sr-only"> ({role})</span>
    </span>
  );
}

const dash = <span className="text-slate-400 dark:text-slate-500">—</span>;

export default function AdminUsersPage() {
  const { users, error } = useLoaderData<typeof loader>();
  const admins = users.filter((user) => user.role === "ROLE_ADMIN").length;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <Link to="/admin/dashboard" className="inline-flex min-h-11 items-center text-sm text-slate-600 hover:underline dark:text-slate-400">
        ← Dashboard
      </Link>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Users</h1>
      {!error && (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {users.length} {users.length === 1 ? "account" : "accounts"}: {admins} {admins === 1 ? "admin" : "admins"}, {users.length - admins}{" "}
          {users.length - admins === 1 ? "customer" : "customers"}.
        </p>
      )}

      {error ? (
        <div className="mt-6">
          <FormAlert>{error}</FormAlert>
        </div>
      ) : users.length === 0 ? (
        <p className="mt-6 rounded-2xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">No users yet</p>
      ) : (
        <>
          {/* Phones: one card per user. */}
          <ul className="mt-6 space-y-3 md:hidden" aria-label="Users">
            {users.map((user) => (
              <li key={user.id} className="card p-4">
                <div className="flex items-start justify-between gap-3">
                  <p className="font-semibold">{user.name}</p>
                  <RoleBadge role={user.role} />
                </div>
                <dl className="mt-2 grid grid-cols-[5rem_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-slate-500 dark:text-slate-400">Email</dt>
                  <dd className="break-all">{user.email}</dd>
                  <dt className="text-slate-500 dark:text-slate-400">Phone</dt>
                  <dd>{user.phone || dash}</dd>
                  <dt className="text-slate-500 dark:text-slate-400">Address</dt>
                  <dd className="whitespace-pre-line">{user.address || dash}</dd>
                </dl>
              </li>
            ))}
          </ul>

          {/* Tablets and desktops: a table. */}
          <div className="card mt-6 hidden overflow-x-auto md:block">
            <table className="w-full text-left text-sm" data-testid="users-table">
              <caption className="sr-only">All users</caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wider text-slate-500 dark:border-slate-800 dark:bg-slate-900/60 dark:text-slate-400">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Name
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Email
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Phone
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Address
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Role
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                {users.map((user) => (
                  <tr key={user.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
                    <th scope="row" className="px-4 py-3 font-medium">
                      {user.name}
                    </th>
                    <td className="px-4 py-3 break-all">{user.email}</td>
                    <td className="px-4 py-3 whitespace-nowrap tabular-nums">{user.phone || dash}</td>
                    <td className="max-w-xs px-4 py-3 whitespace-pre-line">{user.address || dash}</td>
                    <td className="px-4 py-3">
                      <RoleBadge role={user.role} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}

export function meta() {
  return [{ title: "Users | Stride admin" }, { name: "robots", content: "noindex" }];
}
