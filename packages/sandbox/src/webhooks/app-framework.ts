/**
 * Which framework answered a delivery before paymount's route ran, told from
 * the answer alone. Each sign was read from real apps refusing a delivery
 * (Express 5, Koa 3, Fastify 5, Hono 4 on @hono/node-server, NestJS 11 on
 * both platforms, a Next.js 16 proxy under `next start`), with the sandbox's
 * own keep-alive request, and from the production builds of the SvelteKit,
 * Nuxt, Astro, React Router, TanStack Start and Elysia adapters' test apps
 * (tests/fresh-apps/recorded/refusals.json).
 */
export type AppFramework = 'nestjs' | 'fastify' | 'express' | 'koa' | 'hono' | 'next' | 'sveltekit' | 'nuxt' | 'astro' | 'react-router' | 'tanstack-start' | 'elysia';

export interface RecognisedFramework {
  /** The framework the sign is of, or the few that share it, likeliest first. */
  frameworks: readonly AppFramework[];
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

/** Frameworks whose middleware answers with a Fetch API `Response` on Node (`new Response()`, `Response.json()`), Hono's first: the spelling of its content type is Node's, whichever wrote it. */
const FETCH_RESPONSE_FRAMEWORKS: readonly AppFramework[] = ['hono', 'sveltekit', 'astro', 'react-router', 'tanstack-start', 'nuxt'];
/** Frameworks whose answers spell a content type `text/plain;charset=utf-8`: Bun's `Response` (Elysia, Hono or Nuxt on Bun) and h3's (Nuxt). */
const LOWER_CASE_CHARSET_FRAMEWORKS: readonly AppFramework[] = ['elysia', 'nuxt', 'hono'];

/** A sign in the answer's body that only one framework's error page or error body carries. */
const BODY_SIGNS: readonly { framework: AppFramework; sign: RegExp; words: string }[] = [
  { framework: 'sveltekit', sign: /\b__sveltekit_|\bdata-sveltekit-/, words: "its error page (SvelteKit's __sveltekit_ start script)" },
  { framework: 'react-router', sign: /\bwindow\.__reactRouterContext\b/, words: "its error page (React Router's window.__reactRouterContext)" },
  { framework: 'astro', sign: /\bastro-icon\b/, words: "its error page (Astro's default, with its astro-icon)" },
];

/**
 * The framework of a refusal: NestJS's exception body (`{"message":...,"statusCode":403}`,
 * `message` first, on either platform), Fastify's error body (`{"statusCode":401,"error":...,"message":...}`)
 * or its 72-second keep-alive, `x-powered-by` (Express, Next.js, Nuxt), Next.js's own headers, the error
 * page SvelteKit, React Router or Astro renders, Nitro's error body (TanStack Start, Nuxt); else, less
 * surely, the content type as each spells it: a Fetch API `Response` on Node (`text/plain;charset=UTF-8`,
 * a bare `application/json`) from a Next.js proxy or react-router-serve (whose compression adds
 * `vary: Accept-Encoding`), or from Hono or another Fetch API framework's middleware; Bun's and h3's
 * (`text/plain;charset=utf-8`) from Elysia or Nuxt; and Koa's lower-case `charset=utf-8` without the signs of
 * Express or Fastify.
 */
export function recogniseFramework(status: number, headers: Readonly<Record<string, string>>, answer: string | undefined): RecognisedFramework | undefined {
  const body = jsonObject(answer);
  const keys = body === undefined ? [] : Object.keys(body);
  if (body?.['statusCode'] === status && keys[0] === 'message') return { frameworks: ['nestjs'], certain: true, sign: `its exception body ({"message":…,"statusCode":${status}})` };
  if (body?.['statusCode'] === status && keys[0] === 'statusCode' && 'error' in body && 'message' in body) {
    return { frameworks: ['fastify'], certain: true, sign: `its error body ({"statusCode":${status},"error":…,"message":…})` };
  }
  if (/\btimeout=72\b/.test(headers['keep-alive'] ?? '')) return { frameworks: ['fastify'], certain: true, sign: 'its keep-alive of 72 seconds (keep-alive: timeout=72)' };
  const poweredBy = headers['x-powered-by'] ?? '';
  if (/^Express\b/.test(poweredBy)) return { frameworks: ['express'], certain: true, sign: 'x-powered-by: Express' };
  if (/^Next\.js\b/.test(poweredBy)) return { frameworks: ['next'], certain: true, sign: 'x-powered-by: Next.js' };
  if (/^Nuxt\b/.test(poweredBy)) return { frameworks: ['nuxt'], certain: true, sign: 'x-powered-by: Nuxt' };
  const nextHeader = Object.keys(headers).find((name) => /^x-(?:nextjs|middleware)-/.test(name));
  if (nextHeader !== undefined) return { frameworks: ['next'], certain: true, sign: `its ${nextHeader} header` };
  const page = BODY_SIGNS.find(({ sign }) => sign.test(answer ?? ''));
  if (page !== undefined) return { frameworks: [page.framework], certain: true, sign: page.words };
  if (body?.['statusCode'] === status && body['error'] === true && 'statusMessage' in body && 'url' in body) {
    return { frameworks: ['tanstack-start', 'nuxt'], certain: true, sign: `Nitro's error body ({"error":true,"url":…,"statusCode":${status},"statusMessage":…}), which both serve on` };
  }
  const contentType = headers['content-type'] ?? '';
  if (/charset=UTF-8/.test(contentType) || contentType === 'application/json') {
    return /\baccept-encoding\b/i.test(headers['vary'] ?? '')
      ? { frameworks: ['next', 'react-router'], certain: false, sign: `a Fetch API content type (${contentType}) with vary: Accept-Encoding, as a Next.js proxy's and react-router-serve's compression add it` }
      : { frameworks: FETCH_RESPONSE_FRAMEWORKS, certain: false, sign: `a Fetch API content type (${contentType}), as a middleware's Response on Node has it` };
  }
  if (/;charset=utf-8$/.test(contentType)) return { frameworks: LOWER_CASE_CHARSET_FRAMEWORKS, certain: false, sign: `a content type spelled as Bun's Response and h3 spell it (${contentType})` };
  if (/; charset=utf-8$/.test(contentType)) return { frameworks: ['koa'], certain: false, sign: `content-type: ${contentType}, without Express's x-powered-by` };
  return undefined;
}
