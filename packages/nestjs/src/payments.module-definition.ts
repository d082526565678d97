import { ConfigurableModuleBuilder } from '@nestjs/common';
import { createPaymentsController } from './payments.controller';
import type { PaymentsModuleExtras, PaymentsModuleOptions } from './payments.options';
import { PAYMENTS_MODULE_OPTIONS, PAYMENTS_MODULE_SETTINGS } from './payments.tokens';

const DEFAULT_EXTRAS: PaymentsModuleExtras = { mountPath: 'payments', isGlobal: false, controllerDecorators: [] };

function settingsOf(extras: PaymentsModuleExtras): PaymentsModuleExtras {
  const { mountPath, isGlobal, controllerDecorators } = extras;
  return { mountPath, isGlobal, controllerDecorators };
}

export const { ConfigurableModuleClass: ConfigurablePaymentsModule } = new ConfigurableModuleBuilder<PaymentsModuleOptions>({
  moduleName: 'Payments',
  optionsInjectionToken: PAYMENTS_MODULE_OPTIONS,
})
  .setClassMethodName('forRoot')
  // Every key of the defaults is kept out of the handler options, so each extra needs a default here.
  .setExtras<PaymentsModuleExtras>(DEFAULT_EXTRAS, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal,
    controllers: [createPaymentsController(extras.mountPath, extras.controllerDecorators)],
    // forRoot hands the transform every option: only the settings go to PaymentsService, which checks them with the routes' options.
    providers: [...(definition.providers ?? []), { provide: PAYMENTS_MODULE_SETTINGS, useValue: settingsOf(extras) }],
  }))
  .build();
