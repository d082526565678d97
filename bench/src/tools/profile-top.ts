import { readFile } from 'node:fs/promises';

/**
 * Prints where a `node --cpu-prof` profile spent its time: the functions with
 * the most self time, and the same summed per package (or node internal).
 * Usage: node --import tsx src/tools/profile-top.ts <file.cpuprofile> [count]
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function placeOf(url: string): string {
  if (url === '') return '(native)';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url) ?? /packages\/([^/]+)\/dist/.exec(url);
  if (inPackage) return inPackage[1]!.startsWith('@') || !url.includes('/packages/') ? inPackage[1]! : `@paymount/${inPackage[1]}`;
  if (url.startsWith('node:')) return 'node';
  return url.replace(/^file:\/\//, '').split('/').slice(-2).join('/');
}

function share(part: number, total: number): string {
  return `${((part * 100) / total).toFixed(1).padStart(5)}%`;
}

async function main(): Promise<void> {
  const [file, countText = '25'] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [count]');
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    // Waiting on I/O is not time spent; the share is of busy time.
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const total = [...selfMicros.values()].reduce((sum, value) => sum + value, 0);

  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const keyOf = (id: number) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    return `${functionName || '(anonymous)'}  ${placeOf(url)}:${lineNumber + 1}`;
  };
  // Inclusive time: every function on a sample's stack gets the sample once (recursion counted once).
  const inclusive = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) onStack.add(keyOf(at));
    for (const key of onStack) inclusive.set(key, (inclusive.get(key) ?? 0) + micros);
  }

  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const key = keyOf(id);
    const place = placeOf(byId.get(id)!.callFrame.url);
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
    byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, count).map(([key, micros]) => `${share(micros, total)}  ${key}`);
  console.log(`${file}: ${(total / 1000).toFixed(0)} ms busy\n\nself time by function:`);
  console.log(top(byFunction, Number(countText)).join('\n'));
  console.log('\ninclusive time of paymount functions (what each costs with all it calls):');
  const ours = new Map([...inclusive].filter(([key]) => key.includes('@paymount/')));
  console.log(top(ours, Number(countText)).join('\n'));
  console.log('\nself time by package:');
  console.log(top(byPlace, 15).join('\n'));
}

await main();
