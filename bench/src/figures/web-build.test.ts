import { describe, expect, it } from 'vitest';
import { MIN_CPU_PAIRS } from '../harness/paired';
import { meetsTarget } from '../harness/results';
import { webBuildFiguresOf } from './web-build';

const pairs = (value: number) => Array.from({ length: MIN_CPU_PAIRS }, () => value);

describe('the web build figures', () => {
  const figures = (clientCalls: number, verifyMicros: number) =>
    webBuildFiguresOf({ paymount: pairs(clientCalls), bare: pairs(1000) }, { paymount: pairs(verifyMicros), bare: pairs(10) }, 1024, 20);

  it('hold the fetch transport to 0.9 of bare fetch calls/s and Web Crypto verification to 0.8 of the bare CPU per delivery', () => {
    const [client, verify] = figures(900, 12.5);
    expect([client!.id, client!.ratio.median, meetsTarget(client!)]).toEqual(['client-fetch-vs-fetch', 0.9, true]);
    expect([verify!.id, verify!.ratio.median, meetsTarget(verify!)]).toEqual(['webhook-verify-web', 0.8, true]);
    expect(figures(899, 13).map(meetsTarget)).toEqual([false, false]);
  });
});
