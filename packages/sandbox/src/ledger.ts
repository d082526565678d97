import type { Environment } from './credentials';
import { SandboxRefusal } from './envelope';
import { OldestFirst } from './oldest-first';
import { PerEnvironment } from './per-environment';
import { randomId } from './random-id';
import type { ChargeOutcome } from './outcomes';

export type Channel = 'hosted-checkout' | 'direct' | 'terminal';
export type Operation = 'create-session' | 'direct-sale' | 'terminal-sale' | 'refund';

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
  description?: string;
  authMethod?: string;
  billingAddress?: Address;
  shippingAddress?: Address;
  /** ISO 8601, service time. */
  createdAt: string;
}

/** A refund's amount as the service reports it: every part spelled out (0 when not sent) and their sum. */
export interface RefundAmount {
  priceCurrency: string;
  totalAmount: number;
  orderAmount: number;
  taxAmount: number;
  surchargeAmount: number;
  tipAmount: number;
}

/** One refund the sandbox processed, its own transaction; declined ones (`F`) refund nothing. */
export interface Refund {
  transactionId: string;
  transactionRequestId: string;
  originalTransactionId: string;
  /** The original payment's. */
  referenceOrderId?: string;
  environment: Environment;
  amount: RefundAmount;
  transactionStatus: ChargeOutcome['transactionStatus'];
  reason?: ChargeOutcome['reason'];
  description?: string;
  attach?: string;
  /** ISO 8601, service time. */
  createdAt: string;
}

/** How a request names a transaction: by the service's id or by the merchant's transactionRequestId. */
export type TransactionIds = { transactionId: string } | { transactionRequestId: string };

export type LedgerEntry = { kind: 'sale'; charge: Charge } | { kind: 'refund'; refund: Refund };

interface Remembered {
  environment: Environment;
  transactionRequestId: string;
  operation: Operation;
  /** What the operation needs to answer a repeat exactly as the first time: the answer itself, or what it is rebuilt from. */
  data: Record<string, unknown>;
}

export const TRANSACTION_ID_PREFIX = 'txn_';

export function newTransactionId(): string {
  return randomId(TRANSACTION_ID_PREFIX);
}

/**
 * The charges, the refunds and the first result of every transactionRequestId,
 * per environment. A repeated transactionRequestId is answered from here and
 * never reaches the charging code again. Bounded: past `maxEntries` the oldest
 * entries of each list are forgotten.
 */
export class Ledger {
  private readonly results = new PerEnvironment<Remembered>();
  private readonly resultOrder = new OldestFirst<Remembered>();
  private readonly sales: Charge[] = [];
  private readonly refundList: Refund[] = [];
  private readonly byId = new Map<string, LedgerEntry>();
  private readonly byRequest = new PerEnvironment<string>();
  /** Sum of the succeeded refunds per original transactionId: kept apart from the bounded refund list so it never shrinks. */
  private readonly refunded = new Map<string, number>();

  constructor(private readonly maxEntries = 100_000) {}

  /** The first result for this transactionRequestId, if any; refuses (I01) when it belongs to another operation. */
  recall(environment: Environment, transactionRequestId: string, operation: Operation): Record<string, unknown> | undefined {
    const found = this.firstResult(environment, transactionRequestId);
    if (found && found.operation !== operation) {
      throw new SandboxRefusal('I01', `transactionRequestId was already used by a ${found.operation} request`);
    }
    return found?.data;
  }

  /** The first result of this transactionRequestId and the operation that gave it, whatever that was (a query reads it). */
  firstResult(environment: Environment, transactionRequestId: string): Readonly<{ operation: Operation; data: Record<string, unknown> }> | undefined {
    return this.results.get(environment, transactionRequestId);
  }

  remember(environment: Environment, transactionRequestId: string, operation: Operation, data: Record<string, unknown>): void {
    const known = this.results.get(environment, transactionRequestId);
    if (known) {
      // A result set again keeps its place in the order of forgetting.
      known.operation = operation;
      known.data = data;
      return;
    }
    const remembered = { environment, transactionRequestId, operation, data };
    this.results.set(environment, transactionRequestId, remembered);
    this.resultOrder.push(remembered);
    if (this.results.size > this.maxEntries) {
      const oldest = this.resultOrder.shift();
      if (oldest !== undefined) this.results.delete(oldest.environment, oldest.transactionRequestId);
    }
  }

  record(charge: Charge): Charge {
    this.keep(this.sales, charge, { kind: 'sale', charge });
    return charge;
  }

  recordRefund(refund: Refund): Refund {
    this.keep(this.refundList, refund, { kind: 'refund', refund });
    if (refund.transactionStatus === 'S') {
      this.refunded.set(refund.originalTransactionId, this.refundedTotal(refund.originalTransactionId) + refund.amount.totalAmount);
    }
    return refund;
  }

  /** The sale or refund `ids` name in `environment`. */
  find(environment: Environment, ids: TransactionIds): LedgerEntry | undefined {
    const transactionId = 'transactionId' in ids ? ids.transactionId : this.byRequest.get(environment, ids.transactionRequestId);
    const entry = transactionId === undefined ? undefined : this.byId.get(transactionId);
    const environmentOf = entry?.kind === 'sale' ? entry.charge.environment : entry?.refund.environment;
    return environmentOf === environment ? entry : undefined;
  }

  /** What the succeeded refunds of a payment add up to, in minor units. */
  refundedTotal(originalTransactionId: string): number {
    return this.refunded.get(originalTransactionId) ?? 0;
  }

  charges(): Charge[] {
    return structuredClone(this.sales);
  }

  refunds(): Refund[] {
    return structuredClone(this.refundList);
  }

  private keep<T extends Charge | Refund>(list: T[], transaction: T, entry: LedgerEntry): void {
    list.push(transaction);
    this.byId.set(transaction.transactionId, entry);
    this.byRequest.set(transaction.environment, transaction.transactionRequestId, transaction.transactionId);
    if (list.length <= this.maxEntries) return;
    const oldest = list.shift();
    if (!oldest) return;
    this.byId.delete(oldest.transactionId);
    this.refunded.delete(oldest.transactionId);
    if (this.byRequest.get(oldest.environment, oldest.transactionRequestId) === oldest.transactionId) {
      this.byRequest.delete(oldest.environment, oldest.transactionRequestId);
    }
  }
}
