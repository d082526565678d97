import { setTimeout as sleep } from 'node:timers/promises';
import type { Delivery } from '../webhooks/deliveries';
import { COMMAND_USAGE, type CommandArgs } from './args';
import { controlCall, deliveryOf } from './control-client';
import { CommandError, EXIT_CODES, type ExitCode } from './exit-codes';
import { attemptLine, attemptOutcome, deliverySummary, deliveryTable, escapeControls, jsonLine, lastFailure } from './format';

/** Where a command writes: stdout for its result, stderr for progress and errors. */
export interface CommandOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

const POLL_MS = 200;

/** Shows each attempt of a queued delivery as it happens, until it is delivered or out of attempts. */
async function follow(sandboxUrl: string, queued: Delivery, out: CommandOutput): Promise<Delivery> {
  out.stderr(`${escapeControls(`${queued.event} delivery ${queued.deliveryId} to ${queued.url}`)}: waiting for the receiver…\n`);
  const path = `/sandbox/deliveries/${encodeURIComponent(queued.deliveryId)}`;
  let delivery = queued;
  let shown = 0;
  for (;;) {
    // An attempt is listed as soon as it starts; it is shown once its answer (or failure) is in.
    const answered = delivery.attempts.filter((attempt) => attempt.status !== undefined || attempt.error !== undefined);
    for (const attempt of answered.slice(shown)) out.stderr(attemptLine(attempt, (shown += 1)));
    if (delivery.state !== 'pending') return delivery;
    await sleep(POLL_MS);
    delivery = deliveryOf(await controlCall(sandboxUrl, 'GET', path));
  }
}

/** Prints a settled delivery; exit 0 when the receiver took it, 5 (with the reason on stderr) when not. */
function report(delivery: Delivery, json: boolean, out: CommandOutput): ExitCode {
  out.stdout(json ? jsonLine(delivery) : `${delivery.state === 'delivered' ? 'Delivered' : 'Not delivered'}:\n${deliverySummary(delivery)}`);
  if (delivery.state === 'delivered') return EXIT_CODES.ok;
  const last = delivery.attempts.at(-1);
  const why = lastFailure(delivery);
  out.stderr(
    `the receiver at ${escapeControls(delivery.url)} never answered 200 in ${delivery.attempts.length} attempt(s)` +
      `${last ? ` (last: ${attemptOutcome(last)})` : ''}: ${why === undefined ? 'is it running, and mounted at that path?' : escapeControls(why)}\n`,
  );
  return EXIT_CODES.notDelivered;
}

/** Runs one developer command against the sandbox at `args.sandboxUrl`; resolves with its exit status. */
export async function runCommand(args: CommandArgs, out: CommandOutput): Promise<ExitCode> {
  if (args.help) {
    out.stdout(COMMAND_USAGE[args.command]);
    return EXIT_CODES.ok;
  }
  try {
    if (args.command === 'deliveries') {
      const answer = await controlCall(args.sandboxUrl, 'GET', `/sandbox/deliveries?limit=${args.limit}`);
      const deliveries = answer.deliveries as Delivery[];
      out.stdout(args.json ? jsonLine(deliveries) : deliveryTable(deliveries));
      return EXIT_CODES.ok;
    }
    const queued =
      args.command === 'trigger'
        ? await controlCall(args.sandboxUrl, 'POST', '/sandbox/trigger', {
            event: args.event,
            forwardTo: args.forwardTo,
            amount: args.amount,
            currency: args.currency,
            referenceOrderId: args.referenceOrderId,
          })
        : await controlCall(args.sandboxUrl, 'POST', `/sandbox/deliveries/${encodeURIComponent(args.deliveryId)}/resend`);
    return report(await follow(args.sandboxUrl, deliveryOf(queued), out), args.json, out);
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    out.stderr(`paymount-sandbox ${args.command}: ${error.message}\n`);
    return error.exitCode;
  }
}
