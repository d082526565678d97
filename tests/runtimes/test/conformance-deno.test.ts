import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { startConformanceProcess } from '../support/conformance-process';
import { binary, DENO_PERMISSIONS } from '../support/processes';

// createFetchHandler of core's Deno build, served by Deno.serve with the README's one permission, the suite's functions reached over HTTP.
describeRouteConformance(
  'Deno (Deno.serve, createFetchHandler)',
  remoteConformanceTarget('Deno', (description) =>
    startConformanceProcess(binary('deno'), ['run', ...DENO_PERMISSIONS, '--no-prompt', '--no-lock', 'flows/conformance-deno.mjs'], description),
    {
      slowBodyCaseSkipped:
        'Deno.serve sends the 408 at the deadline but keeps reading the declared body, and a handler cannot close the connection',
    },
  ),
);
