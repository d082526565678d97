// The Nest app with its global guard and the README's exemption ("Global guards", written as
// global-guards.module.ts): the sandbox first, then the module whose useFactory reads its options.
import { NestFactory } from '@nestjs/core';
import { startSandbox } from '@paymount/sandbox';
import { useSandbox } from './session.js';

async function bootstrap() {
  const port = process.env['PORT'] ?? '3000';
  const sandbox = await startSandbox({ allowLocalNotifyUrl: true });
  useSandbox(sandbox, port);
  const { AppModule } = await import('./global-guards.module.js');
  const app = await NestFactory.create(AppModule, { rawBody: true });
  app.enableShutdownHooks();
  await app.listen(port);
  process.once('SIGTERM', () => void sandbox.close());
}
void bootstrap();
