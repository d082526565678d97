import { buildTestApp } from './support/test-app';

/** One `nuxt build` per test run (reused while its inputs are unchanged): every test file serves that build. */
export default function setup(): void {
  const seconds = buildTestApp();
  console.log(seconds === 0 ? 'reused the test app build' : `nuxt build of the test app: ${seconds} s`);
}
