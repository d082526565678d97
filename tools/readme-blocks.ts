import { readFileSync } from 'node:fs';

/** One ```ts block of a README, as written. */
export interface ReadmeBlock {
  /** `root` for the repository's README, else the package's directory name (`express`, `core`...). */
  readme: string;
  /** 1-based line of the block's first code line in the README. */
  line: number;
  code: string;
  /** The `## ` heading the block sits under (`Quick start`), or '' before any. */
  section: string;
  /**
   * The file a block says it is, by a first line such as `// app.module.ts` or
   * `// app/payments/[...paymount]/route.ts`; other blocks import it by that path.
   */
  fileName: string | undefined;
  /** Preludes named by `<!-- prelude: a, b -->`, the last non-blank line above the block. */
  preludes: string[];
}

const FENCE_OPEN = /^```(ts|typescript)\s*$/;
const FENCE = /^```/;
const PRELUDE = /^<!--\s*prelude:\s*([\w\s,-]+?)\s*-->$/;
// The characters frameworks' route files are named with: `+server.ts` (SvelteKit), `[...paymount].ts` (Astro, Nuxt),
// `payments.$.ts` (React Router, TanStack Start).
const FILE_NAME = /^\/\/ ((?:[\w.+$[\]-]+\/)*[\w.+$[\]-]+\.ts)\s*$/;

/** Every TypeScript block of one README, in order. */
export function readmeBlocks(readme: string, path: string): ReadmeBlock[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: ReadmeBlock[] = [];
  let section = '';
  let lastText = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (FENCE_OPEN.test(line)) {
      const start = i + 1;
      let end = start;
      while (end < lines.length && !FENCE.test(lines[end] ?? '')) end++;
      const code = lines.slice(start, end).join('\n');
      blocks.push({
        readme,
        line: start + 1,
        code,
        section,
        fileName: FILE_NAME.exec(lines[start] ?? '')?.[1],
        preludes: (PRELUDE.exec(lastText)?.[1] ?? '').split(',').map((name) => name.trim()).filter(Boolean),
      });
      i = end;
      lastText = '';
      continue;
    }
    if (FENCE.test(line)) {
      // Skip other languages' blocks whole: their lines are not markdown.
      while (++i < lines.length && !FENCE.test(lines[i] ?? ''));
      lastText = '';
      continue;
    }
    if (line.trim() !== '') lastText = line.trim();
  }
  return blocks;
}

/** One ```astro block of a README: a page or component named by the first line of its frontmatter (`// src/pages/orders/[id].astro`). */
export interface ReadmeAstroFile {
  section: string;
  fileName: string;
  code: string;
}

/** Every named ```astro block of one README, in order. */
export function readmeAstroFiles(path: string): ReadmeAstroFile[] {
  const files: ReadmeAstroFile[] = [];
  for (const part of readFileSync(path, 'utf8').split(/^## /m).slice(1)) {
    const section = part.slice(0, part.indexOf('\n')).trim();
    for (const [, code = '', fileName = ''] of part.matchAll(/^```astro\n(---\n\/\/ (\S+\.astro)\n[\s\S]*?)^```$/gm)) files.push({ section, fileName, code });
  }
  return files;
}
