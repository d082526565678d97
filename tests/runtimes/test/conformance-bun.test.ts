import { describeRouteConformance, remoteConformanceTarget } from '../../../tools/conformance';
import { startConformanceProcess } from '../support/conformance-process';
import { binary } from '../../../tools/child-processes';

// createFetchHandler of core's Bun build, served by Bun.serve, the suite's functions reached over HTTP.
describeRouteConformance(
  'Bun (Bun.serve, createFetchHandler)',
  remoteConformanceTarget('Bun', (description) => startConformanceProcess(binary('bun'), ['flows/conformance-bun.mjs'], description)),
);
