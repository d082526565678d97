import { parseArgs } from 'node:util';
import { integer } from '../cli-args';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../webhooks/event-name';

export const COMMANDS = ['trigger', 'resend', 'deliveries'] as const;
export type CommandName = (typeof COMMANDS)[number];

export const DEFAULT_SANDBOX_URL = 'http://127.0.0.1:4010';
export const DEFAULT_DELIVERIES_LIMIT = 20;

const COMMON = `  --sandbox-url <url>       the running sandbox (default: $PAYMOUNT_SANDBOX_URL, else ${DEFAULT_SANDBOX_URL})
  --json                    print the result as JSON on stdout
  --help                    show this help
`;

const EXITS = `Exit status: 0 done (trigger, resend: the receiver answered 200), 1 unexpected error,
2 usage error or input the sandbox refused, 3 sandbox unreachable, 4 unknown delivery,
5 the receiver never answered 200 (every attempt failed).
`;

export const COMMAND_USAGE: Readonly<Record<CommandName, string>> = {
  trigger: `Usage: paymount-sandbox trigger <event> --forward-to <url> [options]

Makes a running sandbox create the transaction behind <event> and send its signed
webhook to <url>, with the sandbox's retries; shows each attempt as it happens and
the receiver's answer.

  <event>                   ${WEBHOOK_EVENTS.join(', ')}
  --forward-to <url>        where the webhook goes: http(s) on localhost, 127.0.0.1
                            or [::1], or a public HTTPS URL
  --amount <minor units>    the payment's payable total (default 2500; payment.failed
                            8888, refund.failed 10000, which must stay above 8888)
  --currency <code>         ISO 4217 (default USD)
  --reference-order-id <id> the payment's referenceOrderId (default a fresh one)
${COMMON}
${EXITS}`,
  resend: `Usage: paymount-sandbox resend <deliveryId> [options]

Sends a logged delivery again to its URL: the same body and signature (and the same
signed notifyTime), a fresh delivery id and X-Timestamp; shows each attempt and the
receiver's answer.

${COMMON}
${EXITS}`,
  deliveries: `Usage: paymount-sandbox deliveries [options]

Lists the sandbox's recent webhook deliveries, oldest first, with their attempts and
the receiver's last answer.

  --limit <n>               how many (default ${DEFAULT_DELIVERIES_LIMIT})
${COMMON}
${EXITS}`,
};

interface Common {
  help: boolean;
  sandboxUrl: string;
  json: boolean;
}

export type CommandArgs =
  | (Common & { command: 'trigger'; event: WebhookEvent; forwardTo: string; amount?: number; currency?: string; referenceOrderId?: string })
  | (Common & { command: 'resend'; deliveryId: string })
  | (Common & { command: 'deliveries'; limit: number });

const COMMON_OPTIONS = {
  'sandbox-url': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

function sandboxUrlOf(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  // An empty variable counts as unset, as shells make it easy to leave one so.
  const value = flag ?? (env.PAYMOUNT_SANDBOX_URL || undefined) ?? DEFAULT_SANDBOX_URL;
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`${flag === undefined ? 'PAYMOUNT_SANDBOX_URL' : '--sandbox-url'} must be the sandbox's http(s) URL, e.g. ${DEFAULT_SANDBOX_URL}`);
  }
  return value;
}

function commonOf(values: { 'sandbox-url'?: string | undefined; json?: boolean | undefined }, env: Readonly<Record<string, string | undefined>>): Common {
  return { help: false, json: values.json ?? false, sandboxUrl: sandboxUrlOf(values['sandbox-url'], env) };
}

/** `--help` needs nothing else: the rest of the command line is not checked. */
const helpOnly: Common = { help: true, json: false, sandboxUrl: DEFAULT_SANDBOX_URL };

function onePositional(positionals: readonly string[], name: string): string {
  if (positionals.length !== 1 || positionals[0] === undefined) throw new Error(`expected exactly one <${name}>, got ${positionals.length}`);
  return positionals[0];
}

function isEvent(value: string): value is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

/** One developer command's arguments; throws with a message naming the flag or argument on bad input. */
export function parseCommandArgs(command: CommandName, argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CommandArgs {
  if (command === 'trigger') {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        ...COMMON_OPTIONS,
        'forward-to': { type: 'string' },
        amount: { type: 'string' },
        currency: { type: 'string' },
        'reference-order-id': { type: 'string' },
      },
    });
    if (values.help) return { command, ...helpOnly, event: 'payment.succeeded', forwardTo: '' };
    const common = commonOf(values, env);
    const event = onePositional(positionals, 'event');
    if (!isEvent(event)) throw new Error(`unknown event "${event}": one of ${WEBHOOK_EVENTS.join(', ')}`);
    const forwardTo = values['forward-to'];
    if (forwardTo === undefined) throw new Error('--forward-to <url> is required: where the webhook goes, e.g. http://localhost:3000/payments/webhook');
    return {
      command,
      ...common,
      event,
      forwardTo,
      ...(values.amount === undefined ? {} : { amount: integer(values.amount, '--amount', 1) }),
      ...(values.currency === undefined ? {} : { currency: values.currency }),
      ...(values['reference-order-id'] === undefined ? {} : { referenceOrderId: values['reference-order-id'] }),
    };
  }
  if (command === 'resend') {
    const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, options: COMMON_OPTIONS });
    if (values.help) return { command, ...helpOnly, deliveryId: '' };
    return { command, ...commonOf(values, env), deliveryId: onePositional(positionals, 'deliveryId') };
  }
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { ...COMMON_OPTIONS, limit: { type: 'string' } },
  });
  if (values.help) return { command, ...helpOnly, limit: DEFAULT_DELIVERIES_LIMIT };
  if (positionals.length > 0) throw new Error(`deliveries takes no argument, got "${positionals[0]}"`);
  return {
    command,
    ...commonOf(values, env),
    limit: values.limit === undefined ? DEFAULT_DELIVERIES_LIMIT : integer(values.limit, '--limit', 1),
  };
}
