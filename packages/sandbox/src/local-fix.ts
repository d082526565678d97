/** What every local fix starts with, so a refusal's message can be told apart from its fix (splitLocalFix). */
const LOCAL_FIX_LEAD = '; for local development against this sandbox, ';

/**
 * The tail of a refusal a developer can lift on their own machine (a sandbox
 * option, its clock, its client options), worded alike for every such refusal:
 * `…; for local development against this sandbox, start it with …`.
 */
export function localFix(how: string): string {
  return `${LOCAL_FIX_LEAD}${how}`;
}

/** A refusal's message as what was refused and, when it ends with one, its local fix (the `how` given to localFix). */
export function splitLocalFix(message: string): { refused: string; fix?: string } {
  const at = message.indexOf(LOCAL_FIX_LEAD);
  return at === -1 ? { refused: message } : { refused: message.slice(0, at), fix: message.slice(at + LOCAL_FIX_LEAD.length) };
}
