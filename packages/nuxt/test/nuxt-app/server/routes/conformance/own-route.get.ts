import { defineEventHandler } from 'h3';

// The app's own route beside the payment routes: Nitro routes it before the catch-all, as it routes any more specific file.
export default defineEventHandler(() => ({ own: true }));
