import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { compiled } from '../src/entries/internal';

describe('compiled', () => {
  it('gives a schema zod can compile its fast path, with the same answers', () => {
    const schema = compiled(z.strictObject({ id: z.string().check(z.maxLength(3)) }));
    expect(schema._zod.bag.fallbackRun).toBeTypeOf('function');
    expect(schema.safeParse({ id: 'abc' })).toEqual({ success: true, data: { id: 'abc' } });
    expect(schema.safeParse({ id: 'abcd' }).error?.issues[0]).toMatchObject({ code: 'too_big', path: ['id'] });
  });

  it('throws at once for a rule that would stop a schema compiling, instead of quietly using the slower parser', () => {
    const recursive = z.object({
      get children() {
        return z.array(recursive);
      },
    });
    expect(() => compiled(recursive)).toThrow(/does not support/);
  });
});
