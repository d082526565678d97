import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { startConformanceProcess } from '../support/conformance-process';
import { binary } from '../../../tools/child-processes';
import { DENO_PERMISSIONS } from '../support/processes';

// createFetchHandler of core's Deno build, served by Deno.serve with the README's one permission, the suite's functions reached over HTTP.
describeRouteConformance(
  'Deno (Deno.serve, createFetchHandler)',
  remoteConformanceTarget('Deno', (description) =>
    startConformanceProcess(binary('deno'), ['run', ...DENO_PERMISSIONS, '--no-prompt', '--no-lock', 'flows/conformance-deno.mjs'], description),
    {
      slowBodyConnectionKeptOpen:
        'Deno.serve sends the 408 at the deadline but reads the declared body to its end, its stream cancelled or not: a handler cannot end a connection, only a response cut short does',
    },
  ),
);
