import { remotePaymentHandler } from '../../utils/remote-payment-handler';

// The conformance suite's routes (test/conformance.test.ts).
export default remotePaymentHandler();
