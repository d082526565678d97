import { expect } from 'vitest';

/**
 * Collects the secrets a run used (API key, webhook secret, every wallet
 * token) and every text that must not hold one (log lines, error messages,
 * response bodies, what the sandbox shows), then checks them all at once.
 */
export class SecretScan {
  private readonly secrets = new Set<string>();
  private readonly texts: Array<{ where: string; text: string }> = [];

  secret(...values: string[]): void {
    for (const value of values) this.secrets.add(value);
  }

  text(where: string, ...texts: string[]): void {
    for (const text of texts) this.texts.push({ where, text });
  }

  get counts(): { secrets: number; texts: number } {
    return { secrets: this.secrets.size, texts: this.texts.length };
  }

  /** Every (where, secret kind) found; expected to be empty. */
  leaks(): string[] {
    const found: string[] = [];
    for (const { where, text } of this.texts) {
      for (const secret of this.secrets) {
        if (text.includes(secret)) found.push(`${where}: ${secret.slice(0, 6)}…`);
      }
    }
    return found;
  }

  expectNoLeaks(): void {
    expect(this.secrets.size).toBeGreaterThan(0);
    expect(this.texts.length).toBeGreaterThan(0);
    expect(this.leaks()).toEqual([]);
  }
}
