import { connect } from 'node:tls';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentClient, PaymentNetworkError } from '../src';
import { checkoutInput, clientOptions, directPaymentInput } from './support/fixtures';
import { ok, startServiceServer, type ServiceServer } from './support/service-server';
import { selfSignedCertificate } from './support/tls-certificate';

const sessionData = { checkoutUrl: 'https://pay.example.com/c/tls' };
const noWait = async () => {};

let cert: { cert: string; key: string };
let modern: ServiceServer;
let legacy: ServiceServer;

beforeAll(async () => {
  cert = selfSignedCertificate();
  modern = await startServiceServer(() => ok(sessionData), { ...cert, minVersion: 'TLSv1.2' });
  legacy = await startServiceServer(() => ok(sessionData), {
    ...cert,
    minVersion: 'TLSv1',
    maxVersion: 'TLSv1.1',
    ciphers: 'DEFAULT@SECLEVEL=0',
  });
});

afterAll(async () => {
  await modern?.close();
  await legacy?.close();
});

describe('TLS', () => {
  it('calls an HTTPS service on TLS 1.2+ whose certificate is trusted through `ca`', async () => {
    const client = createPaymentClient(clientOptions(modern.url, { ca: cert.cert, localDevelopment: false, sleep: noWait }));
    try {
      await expect(client.createCheckoutSession(checkoutInput())).resolves.toMatchObject({ checkoutUrl: sessionData.checkoutUrl });
      expect(modern.requests.at(-1)?.headers.authorization).toMatch(/^Bearer /);
    } finally {
      await client.close();
    }
  });

  it('the TLS 1.1 server does complete a handshake with a client that allows TLS 1.1 (control)', async () => {
    const { port } = new URL(legacy.url);
    const protocol = await new Promise<string | null>((resolve, reject) => {
      const socket = connect(
        { host: '127.0.0.1', port: Number(port), ca: cert.cert, minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' },
        () => {
          resolve(socket.getProtocol());
          socket.destroy();
        },
      );
      socket.on('error', reject);
    });
    expect(protocol).toBe('TLSv1.1');
  });

  it('refuses a server capped at TLS 1.1, without retrying', async () => {
    const client = createPaymentClient(clientOptions(legacy.url, { ca: cert.cert, sleep: noWait }));
    try {
      const error = (await client.createCheckoutSession(checkoutInput()).catch((e: unknown) => e)) as PaymentNetworkError;
      expect(error).toBeInstanceOf(PaymentNetworkError);
      expect(error.code).toBe('TLS_ERROR');
      expect(error.message).toMatch(/PROTOCOL|VERSION/i);
      expect(error.outcomeUnknown).toBe(false);
      expect(legacy.requests).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  describe('through a caller-supplied dispatcher that itself allows TLS 1.1', () => {
    const permissive = () => new Agent({ connect: { ca: cert.cert, minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' } });

    it('refuses the TLS 1.1 server before anything is sent, without retrying, for a session and for a payment', async () => {
      const dispatcher = permissive();
      const client = createPaymentClient(clientOptions(legacy.url, { dispatcher, sleep: noWait }));
      try {
        for (const call of [() => client.createCheckoutSession(checkoutInput()), () => client.directPayment(directPaymentInput())]) {
          const error = (await call().catch((e: unknown) => e)) as PaymentNetworkError;
          expect(error).toBeInstanceOf(PaymentNetworkError);
          expect(error.code).toBe('TLS_ERROR');
          expect(error.message).toMatch(/PROTOCOL_VERSION/);
          expect((error.cause as Error).message).toBe('the connection negotiated TLSv1.1; TLS 1.2 or higher is required');
          expect(error.outcomeUnknown).toBe(false);
        }
        expect(legacy.requests).toHaveLength(0);
      } finally {
        await client.close();
        await dispatcher.close();
      }
    });

    it("still calls a TLS 1.2+ server through it (the dispatcher stays the caller's)", async () => {
      const dispatcher = permissive();
      const client = createPaymentClient(clientOptions(modern.url, { dispatcher, localDevelopment: false, sleep: noWait }));
      try {
        await expect(client.createCheckoutSession(checkoutInput())).resolves.toMatchObject({ checkoutUrl: sessionData.checkoutUrl });
        await expect(client.createCheckoutSession(checkoutInput())).resolves.toMatchObject({ checkoutUrl: sessionData.checkoutUrl });
      } finally {
        await client.close();
        await dispatcher.close();
      }
    });
  });

  it('refuses a certificate it was not told to trust', async () => {
    const before = modern.requests.length;
    const client = createPaymentClient(clientOptions(modern.url, { sleep: noWait }));
    try {
      const error = (await client.createCheckoutSession(checkoutInput()).catch((e: unknown) => e)) as PaymentNetworkError;
      expect(error).toBeInstanceOf(PaymentNetworkError);
      expect(error.code).toBe('TLS_ERROR');
      expect(modern.requests).toHaveLength(before);
    } finally {
      await client.close();
    }
  });
});
