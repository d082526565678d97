import { defineConfig } from 'vitest/config';
import { TEST_LIMITS } from '../../tools/vitest.shared';

// No alias to the packages' sources: the site's code compiles against the built packages, as a reader's app does.
export default defineConfig({ test: { include: ['test/**/*.test.ts'], ...TEST_LIMITS } });
