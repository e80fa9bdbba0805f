// Shared by screen actions and their clientActions (no server-only imports here).

/**
 * What a refused form shows again in its fields, for a browser without JavaScript (which renders the page the action
 * answers): the named text fields as they were posted. Never a password.
 */
export function postedValues<K extends string>(formData: FormData, names: readonly K[]): Partial<Record<K, string>> {
  const values: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = formData.get(name);
    if (typeof value === "string") values[name] = value;
  }
  return values;
}
