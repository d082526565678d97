// Prelude "sandbox": a started sandbox.
import type { Sandbox } from '@paymount/sandbox';
declare const sandbox: Sandbox;
