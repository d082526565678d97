import { buildElysiaApp } from './support/elysia-app';

/** One production build of the test app per run: every test file serves that executable. */
export default function setup(): void {
  buildElysiaApp();
}
