// The order page of the Chromium tests: a wallet button, the hosted checkout and the order's status, through @paymount/browser.
import { followOrderStatus, mountWalletButton, startCheckout } from '@paymount/browser';

const { orderId = '', sandboxUrl: sandbox = '' } = document.body.dataset;
const show = (id: string, value: unknown) => {
  const element = document.getElementById(id);
  if (element) element.textContent = JSON.stringify(value);
};
const violations: string[] = [];
document.addEventListener('securitypolicyviolation', (event) => {
  violations.push(`${event.violatedDirective} ${event.blockedURI}`);
  show('csp-violations', violations);
});

const walletButton = document.getElementById('wallet') as HTMLButtonElement;
const button = mountWalletButton(walletButton, { mount: '/payments', orderId, wallet: { sandbox }, onResult: (result) => show('result', result) });
void button.ready.then((ready) => show('ready', ready));
document.getElementById('checkout')?.addEventListener('click', () => startCheckout({ mount: '/payments', orderId }));
followOrderStatus({ mount: '/payments', orderId, delayMs: 250, maxDelayMs: 1000, onStatus: (state) => show('status', state.status) });
