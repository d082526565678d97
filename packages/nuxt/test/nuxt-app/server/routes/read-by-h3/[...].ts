import { remotePaymentHandler } from '../../utils/remote-payment-handler';

// Behind server/middleware/read-bodies.ts, which reads every body through h3 first (test/bodies-read-before.test.ts).
export default remotePaymentHandler();
