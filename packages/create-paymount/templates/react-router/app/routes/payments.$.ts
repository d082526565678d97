import { shop } from '../shop.server';
import type { Route } from './+types/payments.$';

// Each export on its own line: React Router's build removes them from the browser bundle.
export async function loader(args: Route.LoaderArgs) {
  return (await shop()).payments.loader(args);
}

export async function action(args: Route.ActionArgs) {
  return (await shop()).payments.action(args);
}
