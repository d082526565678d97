import { z } from 'zod';
import {
  amountObject,
  booleanField,
  idField,
  notifyUrlField,
  productLineItem,
  referenceOrderIdField,
  text,
  transactionRequestIdField,
  urlField,
} from './fields';

/** The create-session body of docs/service-contract.md#checkout-session. */
export function checkoutSessionRules(allowLocalNotifyUrl: boolean) {
  return z
    .object({
      appId: idField(32),
      transactionRequestId: transactionRequestIdField,
      referenceOrderId: referenceOrderIdField,
      merchantId: idField(32),
      amount: amountObject,
      description: text(128),
      productList: z.array(productLineItem, { error: 'must be an array' }).optional(),
      collectBillingAddress: booleanField.optional(),
      collectShippingAddress: booleanField.optional(),
      merchantReturnUrl: urlField(256).optional(),
      notifyUrl: notifyUrlField(allowLocalNotifyUrl).optional(),
    })
    .superRefine((body, ctx) => {
      if (!body.productList) return;
      const sum = body.productList.reduce((total, item) => total + item.amount * item.num, 0);
      if (sum !== body.amount.orderAmount) {
        ctx.addIssue({
          code: 'custom',
          path: ['productList'],
          message: `sum of amount x num (${sum}) must equal amount.orderAmount (${body.amount.orderAmount})`,
          params: { code: 'V08' },
        });
      }
    });
}

export type CheckoutSessionBody = z.infer<ReturnType<typeof checkoutSessionRules>>;
