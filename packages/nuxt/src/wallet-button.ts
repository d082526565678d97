import { mountWalletButton, walletIdentity, type WalletButton as MountedButton, type WalletFailed, type WalletResult, type WalletSource } from '@paymount/browser';
import { defineComponent, h, onBeforeUnmount, onMounted, ref, watch, type PropType } from 'vue';

/**
 * `@paymount/browser`'s wallet button as a Vue component, written as a render
 * function so it needs no SFC compiler. The server renders the bare, disabled
 * button; the browser module takes it over once mounted in the browser, once
 * per order and wallet: the wallet request is fetched once, not per render.
 * Other attributes (`id`, `class`) go to the `<button>`; its label is the
 * default slot.
 */
export const WalletButton = defineComponent({
  name: 'WalletButton',
  inheritAttrs: false,
  props: {
    /** Where the payment routes are mounted, e.g. `/payments`. */
    mount: { type: String, required: true },
    orderId: { type: String, required: true },
    /** Which wallet pays: `{ sandbox: url }`, `{ environment: 'PRODUCTION' }`, or a client of your own. */
    wallet: { type: Object as PropType<WalletSource>, required: true },
  },
  emits: {
    /** How one click ended. */
    result: (_result: WalletResult) => true,
    /** `true` once the button can be clicked, or the failure that keeps it disabled. */
    ready: (_ready: true | WalletFailed) => true,
  },
  setup(props, { attrs, emit, slots }) {
    const element = ref<HTMLButtonElement>();
    let button: MountedButton | undefined;

    function start(): void {
      if (!element.value) return;
      const started = mountWalletButton(element.value, {
        mount: props.mount,
        orderId: props.orderId,
        wallet: props.wallet,
        onResult: (result) => emit('result', result),
      });
      button = started;
      // A button replaced (new order) or unmounted before it was ready is no one's news.
      void started.ready.then((ready) => {
        if (button === started) emit('ready', ready);
      });
    }
    function stop(): void {
      button?.unmount();
      button = undefined;
    }

    onMounted(start);
    // A wallet written inline (`:wallet="{ sandbox: url }"`) is a new object each render: only another wallet remounts.
    watch([() => props.mount, () => props.orderId, () => walletIdentity(props.wallet)], () => {
      stop();
      start();
    });
    onBeforeUnmount(stop);

    // Rendered disabled, and the same on every render, so Vue never touches `disabled`: the browser module owns it.
    return () => h('button', { ...attrs, ref: element, type: 'button', disabled: true }, slots['default']?.() ?? 'Pay with wallet');
  },
});
