// Prelude "nuxt-config": what Nuxt declares for nuxt.config.ts (the Nuxt README's quick start; its own
// tsconfig checks the file against Nuxt's types in packages/nuxt's tests).
declare function defineNuxtConfig<Config extends { compatibilityDate: string; runtimeConfig?: Record<string, unknown> }>(config: Config): Config;
