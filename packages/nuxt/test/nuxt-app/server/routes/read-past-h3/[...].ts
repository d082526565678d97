import { remotePaymentHandler } from '../../utils/remote-payment-handler';

// Behind server/middleware/read-bodies.ts, which reads every body past h3's cache first (test/bodies-read-before.test.ts).
export default remotePaymentHandler();
