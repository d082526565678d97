import { defineEventHandler, readBody, readFormData, readRawBody, setResponseHeader } from 'h3';

// A merchant's server middleware that reads bodies before the payment routes (test/bodies-read-before.test.ts):
// through h3, which keeps the bytes, or through readFormData, which reads the stream past h3's cache.
export default defineEventHandler(async (event) => {
  if (event.method !== 'POST') return;
  const how = event.path.startsWith('/read-by-h3/') ? event.headers.get('x-read-with') : event.path.startsWith('/read-past-h3/') ? 'readFormData' : null;
  if (how === 'readBody') await readBody(event);
  if (how === 'readRawBody') await readRawBody(event);
  if (how === 'readFormData') await readFormData(event).catch(() => undefined);
  // Says what read the body, so a test knows the routes came after it.
  if (how) setResponseHeader(event, 'x-body-read-with', how);
});
