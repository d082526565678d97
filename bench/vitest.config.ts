import { defineConfig } from 'vitest/config';
import { TEST_LIMITS } from '../tools/vitest.shared';

// The tests of the verdict logic and the figures' targets; some start a Node process (a group run without redis-server).
export default defineConfig({ test: { include: ['src/**/*.test.ts'], ...TEST_LIMITS } });
