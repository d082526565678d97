import { createHash } from 'node:crypto';

/**
 * How many distinct statement texts one wrapped database prepares; texts
 * beyond are sent unnamed (parsed at each use), so a handler that pastes
 * values into its SQL cannot fill every connection with statements.
 */
export const PREPARED_TEXTS_MAX = 500;

/**
 * The name a statement is prepared under, or undefined to send it unnamed:
 * a statement without parameters is sent as simple text (it may be several
 * statements, as a migration is). A name is the text's SHA-256, so every
 * wrapper on one pool, and every copy of this package in a process (ESM and
 * CommonJS), gives a text the same name, and no name stands for two texts
 * (node-postgres refuses that).
 */
export function statementNames(): (text: string, params: readonly unknown[]) => string | undefined {
  const names = new Map<string, string>();
  return (text, params) => {
    if (params.length === 0) return undefined;
    let name = names.get(text);
    if (name === undefined && names.size < PREPARED_TEXTS_MAX) {
      // 9 + 43 characters: under PostgreSQL's 63, beyond which names are cut (and could meet).
      name = `paymount_${createHash('sha256').update(text).digest('base64url')}`;
      names.set(text, name);
    }
    return name;
  };
}
