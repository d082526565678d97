// The Nest app of the README's quick start, with what many Nest apps have and the quick start
// does not show: a global guard (an APP_GUARD, like a JWT or session guard) that refuses every
// request without the app's own credentials, which the payment service's deliveries never carry.
import { Injectable, Module, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

@Injectable()
class SessionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    return request.headers['authorization'] === 'Bearer shop-session';
  }
}

@Module({ imports: [AppModule], providers: [{ provide: APP_GUARD, useClass: SessionGuard }] })
class GuardedAppModule {}

async function bootstrap() {
  const app = await NestFactory.create(GuardedAppModule, { rawBody: true });
  await app.listen(process.env['PORT'] ?? 3000);
}
void bootstrap();
