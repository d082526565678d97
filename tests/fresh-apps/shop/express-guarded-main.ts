// An Express app whose global auth middleware is mounted before the payment router, as in an app
// that had it first: every route's request meets it, the webhook's too.
import { app, listen, payments } from './express-app.js';

app.use((req, res, next) => {
  if (req.headers.authorization !== `Bearer ${process.env['API_TOKEN']}`) {
    res.status(401).json({ error: 'sign in first' });
    return;
  }
  next();
});
app.use('/payments', payments);
listen();
