// Prelude "nest-session": your session check, and the payment options of the quick start.
import type { PaymentsModuleOptions } from '@paymount/nestjs';
declare function hasValidSession(request: unknown): boolean;
declare const paymentOptions: PaymentsModuleOptions;
