import { runtimeChecks } from '../../../runtime-checks';

// The flows' currency and unsent-payment steps on the edge runtime (test/next-start.test.ts).
export const runtime = 'edge';
export const POST = runtimeChecks;
