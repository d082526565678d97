import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const MISSING_CHROMIUM = `No Chromium at ${CHROMIUM_PATH}: the browser tests need Debian's chromium package (apt-get install chromium) or CHROMIUM_PATH set to a Chromium binary.`;

export function chromiumInstalled(): boolean {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Locally a missing browser skips the browser tests (with the message above);
 * under CI it fails them, so a broken CI machine never passes by skipping.
 */
export function browserTestsMode(): 'run' | 'skip' | 'fail' {
  if (chromiumInstalled()) return 'run';
  return process.env['CI'] === 'true' ? 'fail' : 'skip';
}

/** A fresh headless Chromium; every context it makes starts from an empty profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
}
