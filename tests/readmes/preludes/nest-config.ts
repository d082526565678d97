// Prelude "nest-config": @nestjs/config's ConfigModule and ConfigService, which your app imports from '@nestjs/config'.
import type { DynamicModule } from '@nestjs/common';
declare class ConfigService {
  get<T = string>(key: string): T | undefined;
  getOrThrow<T = string>(key: string): T;
}
declare const ConfigModule: { forRoot(options?: { isGlobal?: boolean }): DynamicModule };
