import { buildApp } from './support/start-app';

/** One `vite build` per test run: the conformance test serves that build. */
export default async function setup(): Promise<void> {
  await buildApp();
}
