// A Hono app with Hono's own bearer auth on every path, registered before the payment routes as
// its docs show: every request meets it, the webhook's too.
import { bearerAuth } from 'hono/bearer-auth';
import { app, listen, payments } from './hono-app.js';

app.use('*', bearerAuth({ token: process.env['API_TOKEN'] ?? '' }));
app.route('/payments', payments);
listen();
