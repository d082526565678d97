import { z } from 'zod';
// Bundled into this package's build (not a runtime dependency on @paymount/core): the options are
// checked and worded as a paymount client's are, unknown ones named with the closest known one.
import type { ValidationIssue } from '@paymount/core';
import { checkAgainst, toValidationIssues } from '@paymount/core/internal';
import { MIN_SECRET_LENGTH } from '@paymount/core/schemas';
import { FAULT_KINDS } from './faults';
import { parseIpRange } from './ip-allow-list';
import type { SandboxOptions } from './options';
import { idField } from './rules/fields';

/** Node fires a timer set past this at once (with a warning), so no delay may be longer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const milliseconds = (min: number) => z.number().int().min(min).max(MAX_TIMER_MS);
const fn = z.function();

/** An entry of an IP allow-list, read by the rule the list itself applies (`parseIpRange`). */
const ipRange = z.string().superRefine((entry, ctx) => {
  const range = parseIpRange(entry);
  if (typeof range === 'string') ctx.addIssue({ code: 'custom', message: `"${entry}" ${range}`, params: { rule: 'ip_range' } });
});

const origin = z.string().superRefine((value, ctx) => {
  if (URL.parse(value)?.origin !== value) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not an origin such as https://shop.example (scheme, host, port; no path)`, params: { rule: 'origin' } });
  }
});

// The message never quotes a secret: it may be a real key pasted by mistake.
const secret = z.string().min(MIN_SECRET_LENGTH, { error: `must be at least ${MIN_SECRET_LENGTH} characters, as a paymount client requires of its key and webhook secret` });

const credentials = z
  .strictObject({
    // The service's own rule for the fields they are sent in.
    appId: idField(32),
    merchantId: idField(32),
    testApiKey: secret,
    productionApiKey: secret,
    webhookSecret: secret,
    gatewayId: z.string().min(1),
  })
  .partial()
  .superRefine(({ testApiKey, productionApiKey }, ctx) => {
    if (testApiKey !== undefined && testApiKey === productionApiKey) {
      ctx.addIssue({
        code: 'custom',
        path: ['productionApiKey'],
        message: 'must differ from testApiKey: the key is what selects the environment',
        params: { rule: 'distinct_keys' },
      });
    }
  });

/** The rules of `SandboxOptions`, one per option; strict, so a misspelt option is named rather than ignored. */
const sandboxOptionsRules = z.strictObject({
  port: z.number().int().min(0).max(65_535).optional(),
  host: z.string().min(1).optional(),
  https: z.boolean().optional(),
  clock: z.looseObject({ now: fn }).optional(),
  credentials: credentials.optional(),
  rateLimit: z
    .union([z.literal(false), z.strictObject({ limit: z.number().int().min(1), windowMs: z.number().positive() })], {
      error: 'must be false (no limit) or { limit, windowMs }',
    })
    .optional(),
  webhookRetryDelaysMs: z.array(milliseconds(0)).optional(),
  webhookTimeoutMs: milliseconds(1).optional(),
  ipAllowList: z.array(ipRange).optional(),
  controlAllowList: z.array(ipRange).optional(),
  allowLocalNotifyUrl: z.boolean().optional(),
  walletOrigins: z.array(origin).optional(),
  faults: z
    .strictObject({
      seed: z.number().int(),
      rate: z.number().min(0).max(1),
      kinds: z.array(z.enum(FAULT_KINDS)).min(1, { error: 'must name at least one fault kind' }),
      delayMs: milliseconds(0).optional(),
    })
    .optional(),
  bodyLimitBytes: z.number().int().min(1).optional(),
  log: z.union([z.literal(false), fn], { error: 'must be a function taking a line, or false to log nothing' }).optional(),
  announce: z.boolean().optional(),
  merchantName: z.string().min(1).optional(),
  onError: fn.optional(),
});

/** One broken rule of the options: the option's dotted `path`, the `rule` (`min`, `type`, `unknown_field`…) and what the option must be. */
export type SandboxOptionsIssue = ValidationIssue;

/** `startSandbox`'s options broke their rules: every broken rule, each naming its option, in `issues`. */
export class SandboxOptionsError extends TypeError {
  override name = 'SandboxOptionsError';
  readonly issues: readonly SandboxOptionsIssue[];

  constructor(issues: readonly SandboxOptionsIssue[]) {
    super(`Invalid sandbox options: ${issues.map((issue) => `${issue.path || 'options'} ${issue.message}`).join('; ')}`);
    this.issues = issues;
  }
}

/**
 * Throws a SandboxOptionsError listing every broken rule of `options`. Checks
 * only: the options are used as given, not zod's parsed copy, so a clock or a
 * logger keeps its own `this`.
 */
export function checkSandboxOptions(options: SandboxOptions): void {
  const result = checkAgainst(sandboxOptionsRules, options);
  if (!result.success) throw new SandboxOptionsError(toValidationIssues(result.error.issues, options, sandboxOptionsRules));
}
