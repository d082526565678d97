import { writeReadmeWorkspace } from '../src/workspace';

/** Writes the README blocks once, before any test file reads or runs them. */
export default function setup(): void {
  writeReadmeWorkspace();
}
