import { randomBytes } from 'node:crypto';
import type { Environment } from './credentials';
import { SandboxRefusal } from './envelope';
import type { ChargeOutcome } from './outcomes';

export type Channel = 'hosted-checkout' | 'direct' | 'terminal';
export type Operation = 'create-session' | 'direct-sale' | 'terminal-sale';

export interface Address {
  name?: string;
  line1?: string;
  city?: string;
  postalCode?: string;
  country?: string;
}

/** One transaction the sandbox processed: every attempt is listed, declined ones with `F`. */
export interface Charge {
  transactionId: string;
  transactionRequestId: string;
  referenceOrderId?: string;
  channel: Channel;
  environment: Environment;
  amount: { orderAmount: number; taxAmount: number; surchargeAmount: number; priceCurrency: string };
  payableTotal: number;
  transactionStatus: ChargeOutcome['transactionStatus'];
  reason?: ChargeOutcome['reason'];
  authMethod?: string;
  billingAddress?: Address;
  shippingAddress?: Address;
  /** ISO 8601, service time. */
  createdAt: string;
}

interface Remembered {
  operation: Operation;
  data: Record<string, unknown>;
}

export function newTransactionId(): string {
  return `txn_${randomBytes(12).toString('hex')}`;
}

/**
 * The charges and the first result of every transactionRequestId, per
 * environment. A repeated transactionRequestId is answered from here and never
 * reaches the charging code again.
 */
export class Ledger {
  private readonly results = new Map<string, Remembered>();
  private readonly list: Charge[] = [];

  constructor(private readonly maxEntries = 100_000) {}

  /** The first result for this transactionRequestId, if any; refuses (I01) when it belongs to another operation. */
  recall(environment: Environment, transactionRequestId: string, operation: Operation): Record<string, unknown> | undefined {
    const found = this.results.get(`${environment}:${transactionRequestId}`);
    if (found && found.operation !== operation) {
      throw new SandboxRefusal('I01', `transactionRequestId was already used by a ${found.operation} request`);
    }
    return found?.data;
  }

  remember(environment: Environment, transactionRequestId: string, operation: Operation, data: Record<string, unknown>): void {
    this.results.set(`${environment}:${transactionRequestId}`, { operation, data });
    if (this.results.size > this.maxEntries) {
      const oldest = this.results.keys().next().value;
      if (oldest !== undefined) this.results.delete(oldest);
    }
  }

  record(charge: Charge): Charge {
    this.list.push(charge);
    if (this.list.length > this.maxEntries) this.list.shift();
    return charge;
  }

  charges(): Charge[] {
    return structuredClone(this.list);
  }
}
