import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startSandbox, type Sandbox } from '../src/index';
import { goodHeaders, sessionBody } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ https: true });
});
afterAll(() => sandbox.close());

function handshake(options: { minVersion?: 'TLSv1'; maxVersion?: 'TLSv1.1'; ciphers?: string; ca?: string }) {
  const { port } = new URL(sandbox.url);
  return new Promise<string>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port), servername: 'localhost', ...options }, () => {
      const protocol = socket.getProtocol() ?? '';
      socket.end();
      resolve(protocol);
    });
    socket.on('error', reject);
  });
}

describe('HTTPS sandbox', () => {
  it('serves https with a certificate the client trusts through sandbox.ca', async () => {
    expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.ca).toContain('BEGIN CERTIFICATE');
    const dispatcher = new Agent({ connect: { ca: sandbox.ca } });
    try {
      const res = await request(`${sandbox.url}/v1/checkout/create-session`, {
        method: 'POST',
        headers: goodHeaders(sandbox),
        body: JSON.stringify(sessionBody(sandbox)),
        dispatcher,
      });
      const body = (await res.body.json()) as { code: string; data: { checkoutUrl: string } };
      expect(body.code).toBe('0');
      expect(body.data.checkoutUrl.startsWith(`${sandbox.url}/hosted/checkout/`)).toBe(true);
    } finally {
      await dispatcher.close();
    }
  });

  it('is not trusted without the CA', async () => {
    await expect(handshake({})).rejects.toThrow(/self[- ]signed|unable to verify/i);
  });

  it('negotiates TLS 1.2 or higher and refuses TLS 1.1', async () => {
    expect(['TLSv1.2', 'TLSv1.3']).toContain(await handshake({ ca: sandbox.ca }));
    // The client is allowed TLS 1.1 (security level 0), so the refusal is the server's protocol-version alert.
    await expect(
      handshake({ ca: sandbox.ca, minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }),
    ).rejects.toMatchObject({ code: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' });
  });
});
