// Runtime prelude "nest-session" (the README tests' preludes/nest-session.ts declares the same
// names): the reader's session check and the payment options of the quick start, from their app.
import { hasValidSession, paymentOptions } from './session.js';
