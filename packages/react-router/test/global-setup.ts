import { buildTestApp, type TestAppName } from './support/test-app';

/** One `react-router build` of each test app per test run (reused while its inputs are unchanged): every test file serves those builds. */
export default function setup(): void {
  for (const name of ['conformance', 'quick-start'] satisfies TestAppName[]) {
    const seconds = buildTestApp(name);
    console.log(seconds === 0 ? `reused the ${name} app build` : `react-router build of the ${name} app: ${seconds} s`);
  }
}
