import { routeUrl } from './route-call';

export interface CheckoutOptions {
  /** Where the payment routes are mounted, e.g. `/payments`. */
  mount: string;
  orderId: string;
}

/**
 * Sends the shopper to the hosted checkout by posting the form `POST checkout`
 * takes, as a navigation: the routes answer `303` to the service's page (or,
 * on a refusal, an HTML page that links back), and check the post comes from
 * the shop's own origin. A page's CSP `form-action` must allow the service's
 * origin, which the redirect goes to.
 */
export function startCheckout({ mount, orderId }: CheckoutOptions): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = routeUrl(mount, 'checkout');
  const input = document.createElement('input');
  input.type = 'hidden';
  input.name = 'orderId';
  input.value = orderId;
  form.append(input);
  form.hidden = true;
  document.body.append(form);
  form.submit();
}
