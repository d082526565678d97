import { describe, expect, it } from 'vitest';
import { isPublicHostname } from '../src';

describe('isPublicHostname', () => {
  it.each([
    'localhost',
    'LOCALHOST.',
    'app.localhost',
    'printer.local',
    'db.internal',
    'intranet',
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '[::1]',
    '[::]',
    '[fc00::1]',
    '[fd12:3456::1]',
    '[fe80::1]',
    '[::ffff:7f00:1]',
    '[::ffff:a00:1]',
  ])('%s is not public', (host) => {
    expect(isPublicHostname(host)).toBe(false);
  });

  it.each(['shop.example.com', 'example.com.', '8.8.8.8', '172.32.0.1', '172.15.255.255', '[2001:db8::1]', '[::ffff:808:808]'])(
    '%s is public',
    (host) => {
      expect(isPublicHostname(host)).toBe(true);
    },
  );

  it('agrees with how URL normalises hosts', () => {
    expect(isPublicHostname(new URL('https://[::ffff:127.0.0.1]/').hostname)).toBe(false);
    expect(isPublicHostname(new URL('https://0x7f.1/').hostname)).toBe(false);
  });
});
