/**
 * Header lookup that works for Node's lower-cased header record, a record with
 * any casing (hand-built in tests) and a fetch `Headers` object alike.
 */
export type HeaderSource =
  | Headers
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** `name` in lower case, as Node gives every header name, so a Node record is read without lower-casing anything. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const direct = record[name];
  const value =
    direct !== undefined
      ? direct
      : Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  // A repeated header is ambiguous for a signature or an id: only the first counts.
  return Array.isArray(value) ? (value[0] as string | undefined) : (value as string | undefined);
}
