'use client';

import { useRouter } from 'next/navigation';
import { useCallback } from 'react';
import { OrderPayment as Payment, type OrderPaymentProps } from '@/order-payment';

/** The shop's order payment as a client component: settled, the page is rendered again on the server. */
export function OrderPayment(props: Omit<OrderPaymentProps, 'onSettled'>) {
  const router = useRouter();
  const refresh = useCallback(() => router.refresh(), [router]);
  return <Payment {...props} onSettled={refresh} />;
}
