// Loaded before `node build` (npm run serve, npm start): adapter-node reads HOST, PORT and ORIGIN as it loads, so they are
// set here from the shop's own settings (.env, then the environment's own; see .env.example). Without
// ORIGIN, adapter-node takes every request for https://, and SvelteKit refuses the shop's own forms.
import { existsSync } from 'node:fs';

if (existsSync('.env')) process.loadEnvFile('.env');
const { env } = process;
env.HOST ||= '127.0.0.1';
env.PORT ||= '3000';
env.ORIGIN ||= env.PUBLIC_URL || `http://${env.HOST}:${env.PORT}`;
