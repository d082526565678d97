/** This module's folder (src/ under vitest, dist/ once built): CommonJS has no `import.meta`. */
export const MODULE_DIR = __dirname;
