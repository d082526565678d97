import type { Redis } from 'ioredis';
import { DEFAULT_QUEUE_NAME, DEFAULT_QUEUE_PREFIX } from './options';

/** Where the password goes in a printed command: the log never holds it. */
const PASSWORD_PLACEHOLDER = '<password>';

/**
 * The queue's Redis as `paymount-queue --redis` takes it, for a command
 * printed in the log: scheme, user, host, port and database, with a
 * placeholder for a password (quoted, so a shell does not read `<` as a
 * redirect). Without it a copied command talks to $REDIS_URL or the default
 * Redis, not the queue's.
 */
function redisArgument(client: Redis): string {
  const { host = '127.0.0.1', port = 6379, path, db = 0, username, password, tls } = client.options;
  if (path) return path;
  const auth = password ? `${username ?? ''}:${PASSWORD_PLACEHOLDER}@` : username ? `${username}@` : '';
  const url = `${tls ? 'rediss' : 'redis'}://${auth}${host.includes(':') ? `[${host}]` : host}:${port}${db === 0 ? '' : `/${db}`}`;
  return auth === '' ? url : `'${url}'`;
}

/** The `paymount-queue retry` command for one job of this queue, with the options it needs to find it. */
export function retryCommandOf(queue: { name: string; prefix: string }, client: Redis, jobId: string): string {
  const options = [
    `--redis ${redisArgument(client)}`,
    ...(queue.name === DEFAULT_QUEUE_NAME ? [] : [`--queue ${queue.name}`]),
    ...(queue.prefix === DEFAULT_QUEUE_PREFIX ? [] : [`--prefix ${queue.prefix}`]),
  ];
  const command = `npx paymount-queue retry ${jobId} ${options.join(' ')}`;
  return client.options.password ? `${command} (with the queue's Redis password in place of ${PASSWORD_PLACEHOLDER})` : command;
}
