export * from './amount';
export * from './checkout-session';
export * from './client-options';
export * from './direct-payment';
export * from './envelope';
export * from './fields';
export { isPublicHostname } from './public-host';
export * from './terminal-sale';
export * from './urls';
