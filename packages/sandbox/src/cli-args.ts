import { parseArgs } from 'node:util';
import type { SandboxOptions } from './options';

export const CLI_USAGE = `Usage: paymount-sandbox [options]            start a sandbox
       paymount-sandbox <command> [options]  talk to a running one

Commands (each has --help):
  trigger <event> --forward-to <url>  create a transaction and send its webhook to <url>
  resend <deliveryId>                 send a logged webhook delivery again
  deliveries [--json]                 list the recent webhook deliveries

Options of the sandbox:

  --port <n>                     port to listen on (default 4010; 0 picks a free one)
  --host <address>               interface to listen on (default 127.0.0.1)
  --https                        serve HTTPS (TLS 1.2+) with a certificate generated at start
  --cert-file <path>             where --https writes the certificate PEM to trust
                                 (default: ca.pem in a new private directory under
                                 <tmpdir>, removed when the sandbox stops)
  --allow-local-notify-url       accept http(s)://localhost and 127.0.0.1 notifyUrls
  --wallet-origin <origin>       a page origin besides localhost ones that may mint
                                 test wallet tokens (CORS; repeatable)
  --rate-limit <calls>/<ms>|off  call-frequency limit answered with S04 (default 100/1000)
  --ip-allow <address|cidr>      allow only these callers on /v1/ (repeatable)
  --control-allow <address|cidr> let these callers besides this machine use the /sandbox/
                                 control routes: clock, tokens, triggers (repeatable)
  --webhook-retry-delays <ms,…>  delays between webhook attempts (default 1000,2000,4000,8000,16000)
  --webhook-timeout <ms>         webhook receiver time-out (default 10000)
  --merchant-name <name>         the shop's name on the hosted checkout page
  --app-id, --merchant-id, --test-api-key, --production-api-key, --webhook-secret, --gateway-id <value>
                                 fixed credentials instead of random ones
  --json                         print the URL and credentials as one JSON line
  --help                         show this help
`;

export interface CliSettings {
  options: SandboxOptions;
  certFile: string | undefined;
  json: boolean;
  help: boolean;
}

/** `value` as an integer >= `min`; throws naming `flag` otherwise. */
export function integer(value: string, flag: string, min: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) throw new Error(`${flag} must be an integer >= ${min}`);
  return n;
}

function rateLimit(value: string): SandboxOptions['rateLimit'] {
  if (value === 'off') return false;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (!match) throw new Error('--rate-limit must be <calls>/<ms> (e.g. 100/1000) or off');
  return { limit: integer(match[1] ?? '', '--rate-limit calls', 1), windowMs: integer(match[2] ?? '', '--rate-limit ms', 1) };
}

/** The command line as sandbox options; throws with a message naming the flag on bad input. */
export function parseCliArgs(argv: readonly string[]): CliSettings {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      https: { type: 'boolean', default: false },
      'cert-file': { type: 'string' },
      'allow-local-notify-url': { type: 'boolean', default: false },
      'wallet-origin': { type: 'string', multiple: true },
      'rate-limit': { type: 'string' },
      'ip-allow': { type: 'string', multiple: true },
      'control-allow': { type: 'string', multiple: true },
      'webhook-retry-delays': { type: 'string' },
      'webhook-timeout': { type: 'string' },
      'app-id': { type: 'string' },
      'merchant-id': { type: 'string' },
      'test-api-key': { type: 'string' },
      'production-api-key': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'gateway-id': { type: 'string' },
      'merchant-name': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const credentials = Object.fromEntries(
    (
      [
        ['appId', values['app-id']],
        ['merchantId', values['merchant-id']],
        ['testApiKey', values['test-api-key']],
        ['productionApiKey', values['production-api-key']],
        ['webhookSecret', values['webhook-secret']],
        ['gatewayId', values['gateway-id']],
      ] as const
    ).filter(([, value]) => value !== undefined),
  );
  const options: SandboxOptions = {
    port: integer(values.port, '--port', 0),
    host: values.host,
    https: values.https,
    allowLocalNotifyUrl: values['allow-local-notify-url'],
    credentials,
    ...(values['rate-limit'] === undefined ? {} : { rateLimit: rateLimit(values['rate-limit']) }),
    ...(values['ip-allow'] === undefined ? {} : { ipAllowList: values['ip-allow'] }),
    ...(values['control-allow'] === undefined ? {} : { controlAllowList: values['control-allow'] }),
    ...(values['wallet-origin'] === undefined ? {} : { walletOrigins: values['wallet-origin'] }),
    ...(values['webhook-retry-delays'] === undefined
      ? {}
      : {
          webhookRetryDelaysMs: values['webhook-retry-delays']
            .split(',')
            .filter((part) => part !== '')
            .map((part) => integer(part.trim(), '--webhook-retry-delays', 0)),
        }),
    ...(values['webhook-timeout'] === undefined ? {} : { webhookTimeoutMs: integer(values['webhook-timeout'], '--webhook-timeout', 1) }),
    ...(values['merchant-name'] === undefined ? {} : { merchantName: values['merchant-name'] }),
  };
  if (options.port !== undefined && options.port > 65535) throw new Error('--port must be at most 65535');
  return { options, certFile: values['cert-file'], json: values.json, help: values.help };
}
