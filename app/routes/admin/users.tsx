import { Link, useLoaderData, useLocation } from "react-router";

import { FormAlert, IgnoredFilters } from "~/components/Field";
import { ListSearch } from "~/components/ListSearch";
import { EmptyList, ListPagination } from "~/components/Pagination";
import { DetailCell, RecordTable } from "~/components/RecordTable";
import type { Role } from "~/lib/constants";
import { groupedPhone } from "~/lib/phone";
import { readUserListSearch } from "~/lib/schemas/backoffice";
import { cheapRead, userRoleCountsPlan, usersPagePlan } from "~/services/backoffice.server";
import { readTogether } from "~/services/db.server";
import { requireAdminWhileReading } from "~/services/session.server";
import type { Route } from "./+types/users";

export async function loader({ request, context, url }: Route.LoaderArgs) {
  // A bad parameter is dropped (and named on the page), never a failure: see readUserListSearch.
  const { filters, page, pageSize, dropped } = readUserListSearch(url.searchParams);
  // The public columns only: a password hash never reaches the page. One D1 batch with the session's row.
  const read = () => readTogether(context.db, { list: usersPagePlan(context.db, filters, page, pageSize), roles: userRoleCountsPlan(context.db) });
  const { result } = await requireAdminWhileReading(request, context, url, read, cheapRead(page, pageSize, Boolean(filters.q)));
  try {
    const { list, roles } = await result;
    const { items, ...paging } = list;
    return { users: items, paging, roles, q: filters.q ?? "", dropped, error: null };
  } catch (error) {
    console.error("Admin users: reading the users failed", error);
    return { users: [], paging: null, roles: null, q: filters.q ?? "", dropped, error: "Failed to load users" };
  }
}

const count = new Intl.NumberFormat("en-US");
const plural = (n: number, one: string, many: string) => `${count.format(n)} ${n === 1 ? one : many}`;

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
  const { users, paging, roles, q, dropped, error } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <div className="back-office-page">
      <Link to="/admin/dashboard" className="inline-flex min-h-11 items-center text-sm text-slate-600 hover:underline dark:text-slate-400">
        ← Dashboard
      </Link>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Users</h1>
      {roles && (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="users-count" role="status">
          {plural(roles.total, "account", "accounts")}: {plural(roles.admins, "admin", "admins")}, {plural(roles.total - roles.admins, "customer", "customers")}.
          {q && paging && ` ${count.format(paging.total)}${paging.totalExact ? "" : "+"} matching.`}
        </p>
      )}
      <ListSearch action="/admin/users" id="users-q" label="Search users" placeholder="Name, e-mail or phone" q={q} clearTo="/admin/users" />
      <IgnoredFilters dropped={dropped} />

      {error ? (
        <div className="mt-6">
          <FormAlert>{error}</FormAlert>
        </div>
      ) : users.length === 0 ? (
        <EmptyList paging={paging} noun="users" search={new URLSearchParams(location.search)}>
          {q ? "No users match this search" : "No users yet"}
        </EmptyList>
      ) : (
        <RecordTable
          caption={q ? "Users matching the search" : "All users"}
          headings={["Name", "Email", "Phone", "Address", "Role"]}
          // The e-mail's share is the widest: an address has no spaces to wrap at, so it needs room to stay whole
          // (about 40 characters at 1280 px), where a name or an address wraps between its words. Phone and role
          // (1%) take only what they need.
          columnClasses={["md:w-[23%]", "md:w-[30%]", "md:w-[1%]", "md:w-[29%]", "md:w-[1%]"]}
          testId="users-table"
        >
          {users.map((user) => (
            <tr key={user.id} role="row">
              <th role="rowheader" scope="row">
                {user.name}
              </th>
              {/* Whole where it fits (break-all cut "shopper0@example.l k" while Name had room). In the table the
                  column is never narrower than the address up to a cap, 20rem from 1024 px and 10rem on a tablet's
                  five columns (break-word, unlike anywhere, leaves the column's minimum alone; the box's max-width
                  caps it), so a name or an address wraps at its spaces first and only a longer address breaks, at a
                  hyphen if it has one. On a phone's card it breaks where it must, anywhere (it has no spaces). */}
              <DetailCell label="Email" className="wrap-anywhere">
                <span className="md:inline-block md:max-w-40 md:wrap-break-word lg:max-w-80">{user.email}</span>
              </DetailCell>
              <DetailCell label="Phone" className="tabular-nums md:whitespace-nowrap">
                {user.phone ? groupedPhone(user.phone) : dash}
              </DetailCell>
              <DetailCell label="Address" className="whitespace-pre-line md:max-w-xs">
                {user.address || dash}
              </DetailCell>
              <td role="cell" data-aside="">
                <RoleBadge role={user.role} />
              </td>
            </tr>
          ))}
        </RecordTable>
      )}
      {paging && <ListPagination paging={paging} search={new URLSearchParams(location.search)} />}
    </div>
  );
}

export function meta() {
  return [{ title: "Users | Stride admin" }, { name: "robots", content: "noindex" }];
}
