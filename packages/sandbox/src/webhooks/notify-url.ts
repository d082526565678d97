import { isIP } from 'node:net';

export function isHttpUrl(value: string): boolean {
  const url = URL.parse(value);
  return url !== null && (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Loopback, private, link-local, CGNAT, unspecified or otherwise non-routable addresses. */
function isNonPublicIp(host: string): boolean {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const family = isIP(bare);
  if (family === 4) {
    const [a = 0, b = 0] = bare.split('.').map(Number);
    return (
      a === 0 || a === 10 || a === 127 || a >= 224 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    );
  }
  if (family === 6) {
    const lower = bare.toLowerCase();
    return (
      lower === '::' || lower === '::1' || lower.startsWith('fc') || lower.startsWith('fd') ||
      lower.startsWith('fe80') || lower.startsWith('::ffff:')
    );
  }
  return false;
}

function isNonPublicName(host: string): boolean {
  const lower = host.toLowerCase().replace(/\.$/, '');
  return (
    !lower.includes('.') && isIP(lower.replace(/^\[|\]$/g, '')) === 0 ||
    lower === 'localhost' || lower.endsWith('.localhost') || lower.endsWith('.local') ||
    lower.endsWith('.internal') || lower.endsWith('.test') || lower.endsWith('.invalid') || lower.endsWith('.example')
  );
}

/**
 * The spec's webhook URL rule: public HTTPS. With `allowLocal` (local
 * development against the sandbox) http or https to localhost / 127.0.0.1 / ::1
 * is accepted too — and nothing else non-public.
 */
export function isPublicHttpsUrl(value: string, allowLocal: boolean): boolean {
  const url = URL.parse(value);
  if (!url || url.username !== '' || url.password !== '') return false;
  if (allowLocal && LOCAL_HOSTS.has(url.hostname) && (url.protocol === 'http:' || url.protocol === 'https:')) return true;
  return url.protocol === 'https:' && !isNonPublicIp(url.hostname) && !isNonPublicName(url.hostname);
}
