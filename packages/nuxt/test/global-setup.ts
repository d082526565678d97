import { buildTestApp, PRESET_DIRS, type Preset } from './support/test-app';

/** One `nuxt build` per Nitro preset per test run (reused while its inputs are unchanged): every test file serves those builds. */
export default function setup(): void {
  for (const preset of Object.keys(PRESET_DIRS) as Preset[]) {
    const seconds = buildTestApp(preset);
    console.log(seconds === 0 ? `reused the test app's ${preset} build` : `nuxt build of the test app, ${preset} preset: ${seconds} s`);
  }
}
