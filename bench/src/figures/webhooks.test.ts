import { describe, expect, it } from 'vitest';
import { MIN_CPU_PAIRS } from '../harness/paired';
import { meetsTarget } from '../harness/results';
import { verifyFigureOf } from './webhooks';

const pairs = (value: number) => Array.from({ length: MIN_CPU_PAIRS }, () => value);

describe('the webhook-verify figure', () => {
  it("is the bare check's CPU per delivery over verifyWebhook's, held to 0.8", () => {
    const figure = verifyFigureOf({ paymount: pairs(12.5), bare: pairs(10) }, 1024);
    expect(figure.ratio.median).toBe(0.8);
    expect(meetsTarget(figure)).toBe(true);
    expect(meetsTarget(verifyFigureOf({ paymount: pairs(13), bare: pairs(10) }, 1024))).toBe(false);
  });

  it('takes the median of the pairs, so one disturbed pair does not decide it', () => {
    const paymount = [...pairs(12).slice(1), 40];
    expect(verifyFigureOf({ paymount, bare: pairs(10) }, 1024).ratio).toEqual({ median: 0.833, min: 0.25, max: 0.833 });
  });

  it(`refuses to judge on fewer than ${MIN_CPU_PAIRS} pairs`, () => {
    expect(() => verifyFigureOf({ paymount: [12, 12, 12, 12, 12], bare: [10, 10, 10, 10, 10] }, 1024)).toThrow(RangeError);
  });
});
