import { setTimeout as sleep } from 'node:timers/promises';

/** The README's order page for `id`, once it says `status` (a webhook handler ran), or fails after `timeoutMs`. */
export async function orderPageSays(origin: string, id: string, status: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await (await fetch(`${origin}/orders/${id}`)).text();
    if (text === `Order ${id}: ${status}`) return text;
    if (Date.now() > deadline) throw new Error(`the order page still says "${text}"`);
    await sleep(50);
  }
}
