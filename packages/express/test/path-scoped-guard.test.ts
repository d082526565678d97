import { describeGuardHolds, loginGuard } from '../../../tools/adapter-testing/login-guard';
import { EXPRESS_VERSIONS, startExpressApp } from './support';

for (const [name, express] of EXPRESS_VERSIONS) {
  describeGuardHolds(name, (options) =>
    startExpressApp(express, options, (expressApp, router) => {
      expressApp.use('/payments/checkout', loginGuard);
      expressApp.use('/payments', router);
    }),
  );
}
