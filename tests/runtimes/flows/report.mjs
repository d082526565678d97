// @ts-check
/** Marks the line holding a flow run's result among whatever else the process logs. */
export const RESULT_MARKER = 'PAYMOUNT_FLOWS_RESULT ';

/** @param {import('./types').FlowResult} result */
export function printResult(result) {
  // eslint-disable-next-line no-console -- the result goes to the test over stdout
  console.log(RESULT_MARKER + JSON.stringify(result));
}
