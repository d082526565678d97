// Bundled into this package's build (not a runtime dependency on @paymount/core):
// the client and its emulated service must judge a notifyUrl by one rule.
import { isPublicHostname } from '@paymount/core/schemas';

export function isHttpUrl(value: string): boolean {
  const url = URL.parse(value);
  return url !== null && (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The webhook URL rule (docs/service-contract.md#callback-urls): public HTTPS, judged by the same
 * `isPublicHostname` as @paymount/core. With `allowLocal` (local development
 * against the sandbox) http or https to localhost / 127.0.0.1 / ::1 is accepted
 * too — and nothing else non-public.
 */
export function isPublicHttpsUrl(value: string, allowLocal: boolean): boolean {
  const url = URL.parse(value);
  if (!url || url.username !== '' || url.password !== '') return false;
  if (allowLocal && LOCAL_HOSTS.has(url.hostname) && (url.protocol === 'http:' || url.protocol === 'https:')) return true;
  return url.protocol === 'https:' && isPublicHostname(url.hostname);
}
