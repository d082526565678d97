import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { payOnHostedPage } from '../../readmes/test/support/quick-start';
import { FRESH_APPS } from '../src/apps';
import { appForSuite, settledDeliveries } from './running-app';

const { dir } = inject('freshProject');

// The apps had a global body parser before paymount: the README's block keeps it there (shop/*-parser-first-main.ts).
describe.each(FRESH_APPS.filter((app) => app.parserFirst !== undefined))('the $readme app with a global body parser first', (app) => {
  const orderId = `fresh-${app.readme}-parser-first`;
  const running = appForSuite(join(dir, app.readme), 'parser-first-main.js', orderId);

  it(`as the README's "${app.parserFirst?.section}" block has it: takes a hosted checkout, and its webhook is verified from the bytes the parser kept and reaches the handler`, async () => {
    await payOnHostedPage(`${running().origin}/payments`, orderId, running().origin);
    await running().waitForOutput(new RegExp(`shop: order ${orderId} paid by \\S+`));
    expect(await settledDeliveries(running().announcement.sandboxUrl, orderId)).toEqual([
      expect.objectContaining({ event: 'payment.succeeded', state: 'delivered', url: `${running().origin}/payments/webhook` }),
    ]);
    expect(running().output()).not.toMatch(/WEBHOOK_BODY_ALREADY_PARSED|BODY_ALREADY_CONSUMED/);
  });
});
