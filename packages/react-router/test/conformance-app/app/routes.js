import { index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  // The conformance suite's mount: the payment routes' splat, and the app's own route beside them.
  route('conformance/*', 'routes/conformance.$.js'),
  route('conformance/own-route', 'routes/conformance.own-route.js'),
  // What test/route-behaviors.test.ts asks of the route beside the suite.
  route('consumed/*', 'routes/consumed.$.js'),
  route('cloned/*', 'routes/cloned.$.js'),
  route('misplaced', 'routes/misplaced.js'),
  route('lazy/*', 'routes/lazy.$.js'),
  // The Chromium tests' order page (the React Router guide's, written in by support/test-app.ts) and the routes it pays through.
  route('payments/*', 'routes/conformance.$.js', { id: 'payments' }),
  route('orders/:id/pay', 'routes/orders.$id.pay.tsx'),
];
