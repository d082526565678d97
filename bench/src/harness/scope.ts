import { startChild, type Child } from './child-process';

/** Children started for one figure, all stopped when it ends, whatever happened. */
export class ProcessScope {
  private readonly children: Array<{ stop(): Promise<void> }> = [];

  async start<Ready>(script: URL, args: unknown = {}, nodeFlags: readonly string[] = []): Promise<Child<Ready>> {
    const child = await startChild<Ready>(script, args, nodeFlags);
    this.children.push(child);
    return child;
  }

  adopt<T extends { stop(): Promise<void> }>(child: T): T {
    this.children.push(child);
    return child;
  }

  async close(): Promise<void> {
    await Promise.all(this.children.splice(0).map((child) => child.stop()));
  }
}

export async function withScope<T>(body: (scope: ProcessScope) => Promise<T>): Promise<T> {
  const scope = new ProcessScope();
  try {
    return await body(scope);
  } finally {
    await scope.close();
  }
}

/** A module under `src/subjects/`. */
export function subject(name: string): URL {
  return new URL(`../subjects/${name}.ts`, import.meta.url);
}
