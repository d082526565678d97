import { runtimeChecks } from '../../runtime-checks';

// The flows' currency and unsent-payment steps on the Node runtime (test/next-start.test.ts).
export const POST = runtimeChecks;
