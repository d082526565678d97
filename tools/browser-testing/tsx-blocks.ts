import { readFileSync } from 'node:fs';

/** One ```tsx (or ```vue) block of a README (tools/readme-blocks.ts reads the ```ts ones). */
export interface TsxBlock {
  /** 1-based line of the block's first code line. */
  line: number;
  code: string;
  /** The file the block says it is by its first line (`// app/routes/orders.$id.pay.tsx`, `<!-- app/pages/orders/[id].vue -->`). */
  fileName: string | undefined;
}

/** Every block of the README at `path` fenced as `language`, in order, named by what `fileName` finds in its first line. */
function fencedBlocks(path: string, language: string, fileName: RegExp): TsxBlock[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: TsxBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] ?? '').trimEnd() !== `\`\`\`${language}`) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !(lines[end] ?? '').startsWith('```')) end++;
    blocks.push({ line: start + 1, code: lines.slice(start, end).join('\n'), fileName: fileName.exec(lines[start] ?? '')?.[1] });
    i = end;
  }
  return blocks;
}

/** Every ```tsx block of the README at `path`, in order. */
export function tsxBlocks(path: string): TsxBlock[] {
  return fencedBlocks(path, 'tsx', /^\/\/ ([\w.$/[\]-]+\.tsx)\s*$/);
}

/** Every ```vue block of the README at `path`, in order; a path in a first-line comment names its file in the app. */
export function vueBlocks(path: string): TsxBlock[] {
  return fencedBlocks(path, 'vue', /^<!-- ((?:[\w.[\]-]+\/)*[\w.[\]-]+\.vue) -->\s*$/);
}

/** Every ```svelte block of the README at `path`, in order; a path in a first-line comment names its file in the app. */
export function svelteBlocks(path: string): TsxBlock[] {
  return fencedBlocks(path, 'svelte', /^<!-- ((?:[\w.+[\]-]+\/)*[\w.+[\]-]+\.svelte) -->\s*$/);
}
