/** This module's folder (src/ under vitest and Bun, dist/src/ once built). The NestJS template, CommonJS, has its own. */
export const MODULE_DIR = import.meta.dirname;
