import { readFileSync } from 'node:fs';

/** One ```tsx block of a README (tools/readme-blocks.ts reads the ```ts ones). */
export interface TsxBlock {
  /** 1-based line of the block's first code line. */
  line: number;
  code: string;
  /** The file the block says it is by its first line (`// OrderPayment.tsx`, `// app/routes/orders.$id.pay.tsx`). */
  fileName: string | undefined;
}

/** Every ```tsx block of the README at `path`, in order. */
export function tsxBlocks(path: string): TsxBlock[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: TsxBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```tsx\s*$/.test(lines[i] ?? '')) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !(lines[end] ?? '').startsWith('```')) end++;
    blocks.push({ line: start + 1, code: lines.slice(start, end).join('\n'), fileName: /^\/\/ ([\w.$/[\]-]+\.tsx)\s*$/.exec(lines[start] ?? '')?.[1] });
    i = end;
  }
  return blocks;
}
