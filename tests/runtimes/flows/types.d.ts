/** What a runtime's flow run is given: the sandbox (on Node) and the ids to use. */
export interface FlowConfig {
  service: { baseUrl: string; apiKey: string; appId: string; merchantId: string; webhookSecret: string; gatewayId: string };
  /** One referenceOrderId per flow, unique to the runtime, so the sandbox's records tell the flows apart. */
  orders: { checkout: string; wallet: string; unsent: string; denied: string; refused: string; currency: string; ownFetch: string };
  /** The partial refund of the wallet payment, in minor units. */
  refundCents: number;
  /** Wallet tokens minted by the sandbox for the direct payments. */
  walletTokens: { wallet: string; unsent: string; denied: string; refused: string; currency: string; ownFetch: string };
  /** The service's host on a port where nothing listens: every connection to it is refused. */
  refusedBaseUrl: string;
  /** The service at an address this runtime was not allowed to reach (Deno's --allow-net list), if any. */
  deniedBaseUrl?: string;
}

/** One step's outcome: `ok: false` with the error as the runtime raised it, or what the step saw. */
export type StepReport = { ok: boolean; error?: { name: string; message: string; code?: unknown; reason?: unknown; outcomeUnknown?: unknown; issues?: unknown } } & Record<string, unknown>;

export interface FlowResult {
  runtime?: string;
  load?: StepReport;
  serve?: StepReport;
  checkout?: StepReport;
  wallet?: StepReport;
  refund?: StepReport;
  query?: StepReport;
  verify?: StepReport;
  unsent?: StepReport;
  denied?: StepReport;
  refused?: StepReport;
  currency?: StepReport;
  /** A direct payment through createFetchTransport given a fetch of the flow's own. */
  ownFetch?: StepReport;
  /** The routes' warnings and errors, as their logger got them. */
  log?: string[];
  /** Closing the routes' server and client. */
  close?: StepReport;
}

/** Serves `handler` on 127.0.0.1: the runtime's own HTTP server (Bun.serve, Deno.serve, the Worker itself). */
export type Serve = (handler: (request: Request) => Promise<Response>) => Promise<{ url: string; close(): Promise<void> }>;

