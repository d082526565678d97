import { describe, expect, it } from 'vitest';
import { isPublicHttpsUrl } from '../src/webhooks/notify-url';

describe('notifyUrl policy', () => {
  it.each(['https://shop.example.com/webhook', 'https://8.8.8.8/hook', 'https://[2001:4860::8888]/hook', 'https://api.shop.co.uk:8443/x'])(
    'accepts public HTTPS %s',
    (url) => {
      expect(isPublicHttpsUrl(url, false)).toBe(true);
    },
  );

  it.each([
    'http://shop.example.com/webhook',
    'https://localhost/hook',
    'https://app.localhost/hook',
    'https://127.0.0.1/hook',
    'https://10.1.2.3/hook',
    'https://172.16.0.1/hook',
    'https://192.168.0.1/hook',
    'https://169.254.169.254/latest',
    'https://100.64.0.1/hook',
    'https://0.0.0.0/hook',
    'https://[::1]/hook',
    'https://[fd00::1]/hook',
    'https://[fe80::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::7f00:1]/hook',
    'https://[64:ff9b::a00:1]/hook',
    'https://[2002:7f00:1::]/hook',
    'https://[2001:db8::1]/hook',
    'https://198.18.0.1/hook',
    'https://203.0.113.5/hook',
    'https://0x7f.1/hook',
    'https://nas.home.arpa/hook',
    'https://nas.local/hook',
    'https://service.internal/hook',
    'https://intranet/hook',
    'https://user:pass@shop.example.com/hook',
    'not a url',
  ])('refuses %s', (url) => {
    expect(isPublicHttpsUrl(url, false)).toBe(false);
  });

  it('allows loopback over http or https only when local development is allowed', () => {
    for (const url of ['http://localhost:3000/hook', 'http://127.0.0.1:3000/hook', 'https://[::1]:3000/hook']) {
      expect(isPublicHttpsUrl(url, true)).toBe(true);
    }
    expect(isPublicHttpsUrl('http://192.168.0.1/hook', true)).toBe(false);
    expect(isPublicHttpsUrl('http://shop.example.com/hook', true)).toBe(false);
  });
});
