/**
 * How many distinct statement texts one wrapped database prepares; texts
 * beyond are sent unnamed (parsed at each use), so a handler that pastes
 * values into its SQL cannot fill every connection with statements.
 */
export const PREPARED_TEXTS_MAX = 500;

/** base64url of `bytes`, without padding: btoa is on every runtime, Buffer only on Node's. */
const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

/**
 * The name a statement is prepared under, or undefined to send it unnamed:
 * a statement without parameters is sent as simple text (it may be several
 * statements, as a migration is). A name is the text's SHA-256, so every
 * wrapper on one pool, and every copy of this package in a process (ESM and
 * CommonJS), gives a text the same name, and no name stands for two texts
 * (node-postgres refuses that). Web Crypto's digest, which every runtime
 * has, answers asynchronously: each text's is taken once per wrapper.
 */
export function statementNames(): (text: string, params: readonly unknown[]) => Promise<string | undefined> | undefined {
  const names = new Map<string, Promise<string>>();
  return (text, params) => {
    if (params.length === 0) return undefined;
    let name = names.get(text);
    if (name === undefined && names.size < PREPARED_TEXTS_MAX) {
      // 9 + 43 characters: under PostgreSQL's 63, beyond which names are cut (and could meet).
      name = crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)).then((digest) => `paymount_${base64url(digest)}`);
      names.set(text, name);
    }
    return name;
  };
}
