import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;
const DOC = 'docs/service-contract.md';

function sourceFiles(dir: string): string[] {
  // A package whose code has not landed yet has a manifest and no src.
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

it(`every pointer of a source comment to ${DOC} names a section it has`, () => {
  const doc = readFileSync(join(root, DOC), 'utf8');
  const anchors = new Set([...doc.matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)].map((match) => match[1]));
  const pointers = readdirSync(join(root, 'packages')).flatMap((pkg) =>
    sourceFiles(join(root, 'packages', pkg, 'src')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/docs\/service-contract\.md#([A-Za-z0-9-]*)/g)].map((match) => ({
        file: file.slice(root.length),
        anchor: match[1]!,
      })),
    ),
  );
  expect(pointers.length).toBeGreaterThan(20);
  expect(pointers.filter((pointer) => !anchors.has(pointer.anchor))).toEqual([]);
});

it(`the sections ${DOC} lists at its top all exist`, () => {
  const doc = readFileSync(join(root, DOC), 'utf8');
  const anchors = new Set([...doc.matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)].map((match) => match[1]));
  const links = [...doc.matchAll(/\]\(#([a-z0-9-]+)\)/g)].map((match) => match[1]!);
  expect(links.filter((anchor) => !anchors.has(anchor))).toEqual([]);
});
