import { randomBytes } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

export interface CertificateFile {
  path: string;
  /** Removes what was created for it: the private directory of a default path; nothing at a path the user chose. */
  remove(): void;
}

/** Creates `path` only if nothing is there, not even a symlink (O_CREAT|O_EXCL never follows one), readable by its owner alone. */
function writeExclusive(path: string, text: string): void {
  writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
}

/**
 * Writes the HTTPS sandbox's certificate where no other user of the machine
 * can plant a link to make it overwrite one of the developer's files, or swap
 * the certificate a client will trust. By default into a fresh private
 * directory (mkdtemp: unpredictable name, mode 0700). At a path the user
 * chose, into a new file beside it, created exclusively, then renamed over the
 * path: a rename replaces a symlink found there instead of writing through it.
 */
export function writeCertificateFile(pem: string, chosenPath: string | undefined): CertificateFile {
  if (chosenPath === undefined) {
    const directory = mkdtempSync(join(tmpdir(), 'paymount-sandbox-'));
    const path = join(directory, 'ca.pem');
    writeExclusive(path, pem);
    return { path, remove: () => rmSync(directory, { recursive: true, force: true }) };
  }
  const staged = join(dirname(chosenPath), `.${basename(chosenPath)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeExclusive(staged, pem);
    renameSync(staged, chosenPath);
  } catch (error) {
    rmSync(staged, { force: true });
    throw new Error(`could not write the certificate to ${chosenPath}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { path: chosenPath, remove: () => {} };
}
