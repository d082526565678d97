/*
 * Writes src/webhooks/compiled-checks.ts: the webhook schemas (webhooks/payload.ts,
 * webhooks/event-fields.ts) turned, at build time, into plain functions that
 * return the issues zod would report, in the same order, path, rule and words.
 * The schemas stay the one definition; the verifier runs the generated code, so
 * a Worker that verifies webhooks carries no zod (issue 27: 8 KB) and no
 * `new Function` (which workerd forbids, so zod's own compile() cannot serve there).
 *
 * Only what the webhook schemas use is translated: objects (loose or stripping),
 * optional, string with min_length, number. Anything else stops the generator
 * with the schema's path, so a new rule is never compiled wrongly, only loudly not.
 *
 *   npm run compile-checks -w @paymount/core   (test/compiled-checks.test.ts fails while the file is stale)
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENT_FIELD_SCHEMAS } from '../src/webhooks/event-fields';
import { webhookPayloadSchema } from '../src/webhooks/payload';

export const COMPILED_CHECKS_FILE = fileURLToPath(new URL('../src/webhooks/compiled-checks.ts', import.meta.url));

interface Def {
  type: string;
  error?: (issue: Record<string, unknown>) => unknown;
  checks?: readonly { _zod: { def: Def & { check?: string; minimum?: number } } }[];
  shape?: Record<string, Schema>;
  catchall?: Schema;
  innerType?: Schema;
}
interface Schema {
  _zod: { def: Def };
}

/** The JavaScript test a value of each type passes, as zod's parser makes it (numbers finite, objects neither null nor arrays). */
const TYPE_TEST: Readonly<Record<string, string>> = {
  string: "typeof value === 'string'",
  number: 'Number.isFinite(value)',
  object: 'isObject(value)',
};

/**
 * The message zod would give: the issuing schema's (or check's) `error`, then its
 * schema's. A schema without paymount's own words is refused, since zod's would
 * differ with the locale loaded (none under zod/mini, English under zod classic).
 */
function messageOf(where: string, defs: readonly (Def | undefined)[], issue: Record<string, unknown>): string {
  for (const def of defs) {
    const message = def?.error?.(issue);
    if (typeof message === 'string') return message;
  }
  throw new Error(`${where}: its ${String(issue.code)} issue has no message in paymount's words (give the schema an error option)`);
}

/** A string literal of the generated source. */
const quoted = (text: string) => `'${text.replace(/[\\']/g, (char) => `\\${char}`)}'`;

/** A property read: `value.name`, or `value['name']` for a key that is not an identifier. */
const read = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `value.${key}` : `value[${quoted(key)}]`);

const FIELD_SIGNATURE = '(value: unknown, at: string, key: string, issues: Issues): Issues';
const OBJECT_SIGNATURE = '(value: Record<string, unknown>, at: string, issues: Issues): Issues';

/**
 * One function per distinct check, written once however many fields share it.
 * A field's path is built (`at + key`) only when it has an issue: a valid
 * delivery concatenates and allocates nothing.
 */
class Compiler {
  private readonly names = new Map<string, string>();
  private readonly functions: string[] = [];

  private define(prefix: string, signature: string, body: readonly string[]): string {
    const source = `${signature} {\n${body.map((line) => `  ${line}`).join('\n')}\n}`;
    const known = this.names.get(source);
    if (known !== undefined) return known;
    const name = `${prefix}${this.names.size}`;
    this.names.set(source, name);
    this.functions.push(`function ${name}${source}`);
    return name;
  }

  /** The function checking an object's fields (undefined when it has none), each through its field function, in the shape's order (zod's). */
  private object(schema: Schema, where: string): string | undefined {
    const { def } = schema._zod;
    if (def.checks?.length) throw new Error(`${where}: object checks are not compiled`);
    const catchall = def.catchall?._zod.def.type;
    if (catchall !== undefined && catchall !== 'unknown') throw new Error(`${where}: a ${catchall} catchall is not compiled`);
    const fields = Object.entries(def.shape ?? {}).map(([key, field]) => `issues = ${this.field(field, `${where}.${key}`)}(${read(key)}, at, ${quoted(key)}, issues);`);
    return fields.length === 0 ? undefined : this.define('object', OBJECT_SIGNATURE, [...fields, 'return issues;']);
  }

  /** The function checking one field's value: absent when optional, then its type, then its checks. */
  private field(schema: Schema, where: string): string {
    const { def } = schema._zod;
    if (def.type === 'optional') {
      return this.define('field', FIELD_SIGNATURE, [`return value === undefined ? issues : ${this.field(def.innerType!, where)}(value, at, key, issues);`]);
    }
    const typeIssue = this.typeIssue(def, 'issues', 'at + key', where);
    if (def.type === 'object') {
      const fields = this.object(schema, where);
      const valid = fields === undefined ? 'issues' : `${fields}(value, at + key + '.', issues)`;
      return this.define('field', FIELD_SIGNATURE, [`return ${this.typeTest(def, where)} ? ${valid} : ${typeIssue};`]);
    }
    const minimums = this.minimums(def, where);
    if (minimums.length === 0) return this.define('field', FIELD_SIGNATURE, [`return ${this.typeTest(def, where)} ? issues : ${typeIssue};`]);
    return this.define('field', FIELD_SIGNATURE, [
      `if (${this.typeTest(def, where)}) {`,
      // zod counts code points (a surrogate pair is one character) where the UTF-16 length alone does not decide.
      ...minimums.map(({ minimum, message }) =>
        minimum <= 1
          ? `  if (value.length < ${minimum}) issues = issue(issues, at + key, 'min_length', ${quoted(message)});`
          : `  if (value.length < ${minimum} || (value.length < ${2 * minimum} && [...value].length < ${minimum})) issues = issue(issues, at + key, 'min_length', ${quoted(message)});`,
      ),
      '  return issues;',
      '}',
      `issues = ${typeIssue};`,
      ...minimums.flatMap(({ minimum, message }, index) => [
        `const short${index} = shortOfType(value, ${minimum});`,
        `if (short${index} !== undefined) issues = issue(issues, at + key, short${index}, ${quoted(message)});`,
      ]),
      'return issues;',
    ]);
  }

  private typeTest(def: Def, where: string): string {
    const test = TYPE_TEST[def.type];
    if (test === undefined) throw new Error(`${where}: a ${def.type} schema is not compiled`);
    return test;
  }

  /** The call adding the issue of a value of another type: `required` when absent, `type` otherwise, each in the schema's words. */
  private typeIssue(def: Def, issues: string, path: string, where: string): string {
    const missing = messageOf(where, [def], { code: 'invalid_type', expected: def.type, input: undefined });
    const wrong = messageOf(where, [def], { code: 'invalid_type', expected: def.type, input: null });
    return `typeIssue(${issues}, value, ${path}, ${quoted(missing)}, ${quoted(wrong)})`;
  }

  /** A string's length minimums and their words: each checked whatever the others found, as zod checks them. */
  private minimums(def: Def, where: string): { minimum: number; message: string }[] {
    return (def.checks ?? []).map(({ _zod: { def: check } }) => {
      if (def.type !== 'string' || check.check !== 'min_length' || check.minimum === undefined) {
        throw new Error(`${where}: a ${check.check ?? check.type} check on a ${def.type} is not compiled`);
      }
      const { minimum } = check;
      return { minimum, message: messageOf(where, [check, def], { code: 'too_small', origin: 'string', minimum, inclusive: true, input: '' }) };
    });
  }

  /** A check of a whole value (an object schema), as an arrow function: undefined when the value is valid, else its issues. */
  entry(schema: Schema, where: string): string {
    const { def } = schema._zod;
    if (def.type !== 'object') throw new Error(`${where}: only an object schema is compiled as a whole`);
    const fields = this.object(schema, where);
    const valid = fields === undefined ? 'undefined' : `${fields}(value, '', undefined)`;
    return `(value: unknown): Issues => (${this.typeTest(def, where)} ? ${valid} : ${this.typeIssue(def, 'undefined', "''", where)})`;
  }

  get code(): string {
    return this.functions.join('\n\n');
  }
}

/** The source of compiled-checks.ts for the schemas as they are now. */
export function compiledChecksSource(): string {
  const compiler = new Compiler();
  const payload = compiler.entry(webhookPayloadSchema as unknown as Schema, 'webhookPayloadSchema');
  const events = Object.entries(EVENT_FIELD_SCHEMAS).map(([type, schema]) => `  ${quoted(type)}: ${compiler.entry(schema as unknown as Schema, `EVENT_FIELD_SCHEMAS['${type}']`)},`);
  return `// Generated by scripts/compile-webhook-checks.ts from webhooks/payload.ts and webhooks/event-fields.ts: do not edit.
// \`npm run compile-checks -w @paymount/core\` writes it again; test/compiled-checks.test.ts fails while it is stale.
import { isObject, issue, shortOfType, typeIssue, type Issues } from './check-issues';
import type { NamedEventType } from './event-fields';

${compiler.code}

/** The issues of a webhook body under webhookPayloadSchema; undefined when it has none. */
export const webhookPayloadIssues = ${payload};

/** The issues of an event under its type's EVENT_FIELD_SCHEMAS entry; undefined when it has none. */
export const EVENT_FIELD_ISSUES: Readonly<Record<NamedEventType, (value: unknown) => Issues>> = {
${events.join('\n')}
};
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(COMPILED_CHECKS_FILE, compiledChecksSource());
  process.stdout.write(`wrote ${COMPILED_CHECKS_FILE}\n`);
}
