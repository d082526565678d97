import type { Delivery } from '../webhooks/deliveries';
import { CommandError, EXIT_CODES } from './exit-codes';
import { escapeControls } from './format';

const REQUEST_TIMEOUT_MS = 10_000;

interface ErrorBody {
  error?: { code?: string; message?: string; issues?: Array<{ message?: string }> };
}

/** The exit status of a sandbox refusal: what the developer typed, an unknown delivery, or something else. */
function exitCodeOf(code: string | undefined, status: number): CommandError['exitCode'] {
  if (code === 'D01') return EXIT_CODES.unknownDelivery;
  return status === 400 ? EXIT_CODES.usage : EXIT_CODES.error;
}

function unreachable(sandboxUrl: string, why: string): CommandError {
  return new CommandError(
    EXIT_CODES.unreachable,
    `no paymount sandbox answers at ${escapeControls(sandboxUrl)} (${escapeControls(why)}). Start one with \`npx paymount-sandbox\`, or point at yours with --sandbox-url or PAYMOUNT_SANDBOX_URL.`,
  );
}

/** One call to a running sandbox's control routes; its JSON answer, or a CommandError with the fitting exit status. */
export async function controlCall(sandboxUrl: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(new URL(path, sandboxUrl), {
      method,
      ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw unreachable(sandboxUrl, cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)));
  }
  const json = await res.json().catch(() => undefined);
  const refusal = (json as ErrorBody | undefined)?.error;
  if (res.ok && typeof json === 'object' && json !== null) return json as Record<string, unknown>;
  // Anything but a sandbox's JSON answer or error: another server listens there.
  if (refusal?.code === undefined) throw unreachable(sandboxUrl, `HTTP ${res.status}, not a paymount sandbox's answer`);
  const details = (refusal.issues ?? []).map((issue) => issue.message).filter((message) => message !== undefined && message !== refusal.message);
  // Whatever answers at the URL wrote these: each is escaped before it reaches the terminal.
  const lines = [`the sandbox refused: ${refusal.code} ${refusal.message ?? ''}`, ...details].map((line) => escapeControls(String(line)));
  throw new CommandError(exitCodeOf(refusal.code, res.status), lines.join('\n  '));
}

/** The `delivery` of a control route's answer. */
export function deliveryOf(answer: Record<string, unknown>): Delivery {
  return answer.delivery as Delivery;
}
