import { packageTests } from '../../tools/vitest.shared';

// One file at a time: the takeover tests kill workers and wait out BullMQ's lock and stall
// timers; with a second file beside them at a load average of 33, five of them failed.
export default packageTests({ fileParallelism: false });
