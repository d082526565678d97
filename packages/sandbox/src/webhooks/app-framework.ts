/**
 * Which framework answered a delivery before paymount's route ran, told from
 * the answer alone. Each sign was read from real apps refusing a delivery
 * (Express 5, Koa 3, Fastify 5, Hono 4 on @hono/node-server, NestJS 11 on
 * both platforms, a Next.js 16 proxy under `next start`), with the sandbox's
 * own keep-alive request.
 */
export type AppFramework = 'nestjs' | 'fastify' | 'express' | 'koa' | 'hono' | 'next';

export interface RecognisedFramework {
  framework: AppFramework;
  /** True for a sign the framework writes on purpose; false for one only its defaults happen to make. */
  certain: boolean;
  /** The sign, in words: `x-powered-by: Express`. */
  sign: string;
}

/** The answer headers the recognition reads: the attempt keeps these and no others. */
export function isFrameworkHeader(name: string): boolean {
  return ['content-type', 'keep-alive', 'vary', 'x-powered-by'].includes(name) || /^x-(?:nextjs|middleware)-/.test(name);
}

/** The keys of a JSON object answer, in the order sent, and the object; undefined for any other answer. */
function jsonObject(answer: string | undefined): Record<string, unknown> | undefined {
  try {
    const body: unknown = JSON.parse(answer ?? '');
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The framework of a refusal: NestJS's exception body (`{"message":...,"statusCode":403}`,
 * `message` first, on either platform), Fastify's error body (`{"statusCode":401,"error":...,"message":...}`)
 * or its 72-second keep-alive, `x-powered-by` (Express, Next.js), Next.js's own headers; else, less
 * surely, the content type as each spells it: a Fetch API `Response` (`text/plain;charset=UTF-8`,
 * a bare `application/json`) from Next.js (whose compression adds `vary: Accept-Encoding`) or Hono,
 * and Koa's lower-case `charset=utf-8` without the signs of Express or Fastify.
 */
export function recogniseFramework(status: number, headers: Readonly<Record<string, string>>, answer: string | undefined): RecognisedFramework | undefined {
  const body = jsonObject(answer);
  const keys = body === undefined ? [] : Object.keys(body);
  if (body?.['statusCode'] === status && keys[0] === 'message') return { framework: 'nestjs', certain: true, sign: `its exception body ({"message":…,"statusCode":${status}})` };
  if (body?.['statusCode'] === status && keys[0] === 'statusCode' && 'error' in body && 'message' in body) {
    return { framework: 'fastify', certain: true, sign: `its error body ({"statusCode":${status},"error":…,"message":…})` };
  }
  if (/\btimeout=72\b/.test(headers['keep-alive'] ?? '')) return { framework: 'fastify', certain: true, sign: 'its keep-alive of 72 seconds (keep-alive: timeout=72)' };
  const poweredBy = headers['x-powered-by'] ?? '';
  if (/^Express\b/.test(poweredBy)) return { framework: 'express', certain: true, sign: 'x-powered-by: Express' };
  if (/^Next\.js\b/.test(poweredBy)) return { framework: 'next', certain: true, sign: 'x-powered-by: Next.js' };
  const nextHeader = Object.keys(headers).find((name) => /^x-(?:nextjs|middleware)-/.test(name));
  if (nextHeader !== undefined) return { framework: 'next', certain: true, sign: `its ${nextHeader} header` };
  const contentType = headers['content-type'] ?? '';
  if (/charset=UTF-8/.test(contentType) || contentType === 'application/json') {
    return /\baccept-encoding\b/i.test(headers['vary'] ?? '')
      ? { framework: 'next', certain: false, sign: `a Fetch API content type (${contentType}) with vary: Accept-Encoding` }
      : { framework: 'hono', certain: false, sign: `a Fetch API content type (${contentType})` };
  }
  if (/; charset=utf-8$/.test(contentType)) return { framework: 'koa', certain: false, sign: `content-type: ${contentType}, without Express's x-powered-by` };
  return undefined;
}
