/**
 * The tail of a refusal a developer can lift on their own machine (a sandbox
 * option, its clock, its client options), worded alike for every such refusal:
 * `…; for local development against this sandbox, start it with …`.
 */
export function localFix(how: string): string {
  return `; for local development against this sandbox, ${how}`;
}
