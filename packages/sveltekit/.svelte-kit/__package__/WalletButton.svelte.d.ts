import { type WalletButtonOptions, type WalletFailed, type WalletResult } from '@paymount/browser';
import type { Snippet } from 'svelte';
import type { HTMLButtonAttributes } from 'svelte/elements';
interface Props extends Omit<WalletButtonOptions, 'onResult'>, Omit<HTMLButtonAttributes, 'children' | 'disabled' | 'onclick' | 'type'> {
    /** Called once per click with how it ended. */
    onresult?: (result: WalletResult) => void;
    /** Called once the button can be clicked (`true`), or with the failure that keeps it disabled. */
    onready?: (ready: true | WalletFailed) => void;
    /** The button's label. Default: "Pay with wallet". */
    children?: Snippet;
}
declare const WalletButton: import("svelte").Component<Props, {}, "">;
type WalletButton = ReturnType<typeof WalletButton>;
export default WalletButton;
