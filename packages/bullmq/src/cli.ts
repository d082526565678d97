#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { PaymentError, silentLogger } from '@paymount/core';
import { DEFAULT_QUEUE_NAME, DEFAULT_QUEUE_PREFIX, DEFAULT_TIMEOUT_MS } from './options';
import { createWebhookQueue, type FailedWebhookJob, type WebhookQueue } from './webhook-queue';

const USAGE = `Usage: paymount-queue <command> [options]

Commands:
  list-failed            the dead-lettered webhook events: job id, event, attempts, last failure
  retry <id>             send one back to the workers (the job id, or the event key as logged)
  retry --all            send every dead-lettered event back

Options:
  --redis <url>          the queue's Redis (default: $REDIS_URL, else redis://127.0.0.1:6379)
  --queue <name>         the queue's name (default ${DEFAULT_QUEUE_NAME})
  --prefix <prefix>      BullMQ's key prefix (default ${DEFAULT_QUEUE_PREFIX})
  --json                 list-failed as JSON

Exit status:
  0                      done
  1                      nothing found to retry
  2                      bad usage, or the queue could not be reached (Redis did not answer within ${DEFAULT_TIMEOUT_MS / 1_000} s)
`;

const EXIT = { ok: 0, notFound: 1, failed: 2 } as const;

function line(job: FailedWebhookJob): string {
  const when = job.failedAt === undefined ? '-' : new Date(job.failedAt).toISOString();
  return [job.id, job.type, job.transactionId ?? '-', `attempts=${job.attempts}`, when, job.failedReason].join('\t');
}

async function run(queue: WebhookQueue, command: string | undefined, args: { id?: string; all: boolean; json: boolean }): Promise<number> {
  if (command === 'list-failed') {
    const failed = await queue.listFailed();
    if (args.json) process.stdout.write(`${JSON.stringify(failed, null, 2)}\n`);
    else process.stdout.write(failed.length === 0 ? 'no failed webhook jobs\n' : `${failed.map(line).join('\n')}\n`);
    return EXIT.ok;
  }
  if (args.all) {
    const retried = await queue.retryAllFailed();
    process.stdout.write(`retried ${retried} failed webhook job(s)\n`);
    return retried === 0 ? EXIT.notFound : EXIT.ok;
  }
  if (args.id === undefined) throw new UsageError('retry needs a job id, or --all');
  if (!(await queue.retry(args.id))) {
    process.stderr.write(`no failed webhook job ${args.id} (see paymount-queue list-failed)\n`);
    return EXIT.notFound;
  }
  process.stdout.write(`retried ${args.id}\n`);
  return EXIT.ok;
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        redis: { type: 'string' },
        queue: { type: 'string' },
        prefix: { type: 'string' },
        all: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return EXIT.failed;
  }
  const { values, positionals } = parsed;
  const [command, id] = positionals;
  if (values.help) {
    process.stdout.write(USAGE);
    return EXIT.ok;
  }
  if (command !== 'list-failed' && command !== 'retry') {
    process.stderr.write(`${command === undefined ? 'no command given' : `unknown command ${command}`}\n\n${USAGE}`);
    return EXIT.failed;
  }
  const queue = createWebhookQueue({
    connection: values.redis ?? process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    ...(values.queue === undefined ? {} : { name: values.queue }),
    ...(values.prefix === undefined ? {} : { prefix: values.prefix }),
    logger: silentLogger,
  });
  try {
    return await run(queue, command, { ...(id === undefined ? {} : { id }), all: values.all, json: values.json });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const usage = error instanceof UsageError;
    process.stderr.write(`${usage || error instanceof PaymentError ? message : `the queue could not be used: ${message}`}\n${usage ? `\n${USAGE}` : ''}`);
    return EXIT.failed;
  } finally {
    await queue.close();
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
