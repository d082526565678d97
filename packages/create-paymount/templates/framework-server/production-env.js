// Loaded before the framework's production server (npm run serve, npm start), which reads HOST and PORT
// (and adapter-node ORIGIN) as it loads: they are set here from the shop's own settings (.env, then the
// environment's own; see .env.example), so one set of variables runs both. Without ORIGIN, adapter-node
// takes every request for https://, and SvelteKit refuses the shop's own forms.
import { existsSync } from 'node:fs';

if (existsSync('.env')) process.loadEnvFile('.env');
const { env } = process;
env.HOST ||= '127.0.0.1';
env.PORT ||= '3000';
env.ORIGIN ||= env.PUBLIC_URL || `http://${env.HOST}:${env.PORT}`;
