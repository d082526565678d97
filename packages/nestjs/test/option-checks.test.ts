import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { describeOptionChecks } from '../../../tools/adapter-testing/option-checks';
import { PaymentsModule, type PaymentsModuleOptions } from '../src';

describeOptionChecks(
  'PaymentsModule.forRoot',
  async (options) => {
    const app = await NestFactory.create(PaymentsModule.forRoot(options as unknown as PaymentsModuleOptions), { logger: false, abortOnError: false });
    await app.close();
  },
  [
    { name: 'controllerDecorators', misspelt: 'controllerDecorator', wrongValue: 'Public()', mustBe: 'must be a list of class decorators such as [Public()]' },
    { name: 'mountPath', misspelt: 'mountPth', wrongValue: 5, mustBe: "must be a path such as '/payments'" },
    { name: 'isGlobal', misspelt: 'isGlobl', wrongValue: 'yes', mustBe: 'must be true or false' },
    { name: 'workers', misspelt: 'worker', wrongValue: { concurrency: 5 }, mustBe: 'must be a function (routes) => workers, such as (routes) => startWebhookWorkers(queue, { routes })' },
  ],
);

describeOptionChecks(
  'PaymentsModule.forRootAsync (the settings beside the factory)',
  async (options) => {
    const { mountPath, controllerDecorators, ...factoryResult } = options;
    const module = PaymentsModule.forRootAsync({
      useFactory: () => factoryResult as unknown as PaymentsModuleOptions,
      mountPath: mountPath as string,
      controllerDecorators: controllerDecorators as ClassDecorator[],
    });
    const app = await NestFactory.create(module, { logger: false, abortOnError: false });
    await app.close();
  },
  [
    { name: 'controllerDecorators', misspelt: 'controllerDecorator', wrongValue: 'Public()', mustBe: 'must be a list of class decorators such as [Public()]' },
    { name: 'mountPath', misspelt: 'mountPth', wrongValue: 5, mustBe: "must be a path such as '/payments'" },
  ],
);
