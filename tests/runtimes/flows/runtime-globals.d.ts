// The little of Bun's, Deno's and workerd's globals the flow entries use, so
// that tsc checks them without each runtime's full type package.
declare const Bun: {
  version: string;
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): { port: number; stop(closeActiveConnections?: boolean): Promise<void> };
};

declare const Deno: {
  args: string[];
  version: { deno: string };
  serve(
    options: { hostname: string; port: number; onListen?: (addr: { port: number }) => void },
    handler: (request: Request) => Promise<Response>,
  ): { shutdown(): Promise<void> };
  exit(code?: number): never;
};

declare const navigator: { userAgent: string };
