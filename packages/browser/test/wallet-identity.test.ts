import { describe, expect, it } from 'vitest';
import { walletIdentity, type WalletClient } from '../src';
import { walletClientOf } from '../src/wallet-client';

/** A client as a page makes one: its own object, whose methods JSON cannot tell apart. */
const aClient = (): WalletClient => ({ loadPaymentData: () => Promise.reject(new Error('not clicked in this test')) });

describe('walletIdentity: the rule the React, Vue and Svelte components remount their button by', () => {
  it('a wallet named by its settings is the same wallet when written again as a new object', () => {
    expect(walletIdentity({ sandbox: 'http://127.0.0.1:4010' })).toBe(walletIdentity({ sandbox: 'http://127.0.0.1:4010' }));
    expect(walletIdentity({ environment: 'TEST' })).toBe(walletIdentity({ environment: 'TEST' }));
  });

  it('other settings are another wallet', () => {
    expect(walletIdentity({ sandbox: 'http://127.0.0.1:4010' })).not.toBe(walletIdentity({ sandbox: 'http://127.0.0.1:4011' }));
    expect(walletIdentity({ environment: 'TEST' })).not.toBe(walletIdentity({ environment: 'PRODUCTION' }));
    expect(walletIdentity({ environment: 'TEST' })).not.toBe(walletIdentity({ environment: 'TEST', scriptUrl: 'https://wallet.example/pay.js' }));
  });

  it('a client is itself: the same client is the same wallet, another client of the same shape is not', () => {
    const client = aClient();
    expect(walletIdentity(client)).toBe(client);
    expect(walletIdentity(aClient())).not.toBe(walletIdentity(client));
  });

  it('what it takes for a client is what the button pays with: the client itself, nothing loaded', async () => {
    const client = aClient();
    await expect(walletClientOf(client)).resolves.toBe(client);
  });
});
