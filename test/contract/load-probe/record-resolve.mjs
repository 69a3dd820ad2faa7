// Module resolve hook for the load-cost test: appends every URL Node resolves to the file named
// by `data.log`. A file, not a message port: hooks run on their own thread, and appending keeps
// the record complete and ordered by the time the probe reads it.
import { appendFileSync } from 'node:fs';

let log = '';

export function initialize(data) {
  log = data.log;
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(log, result.url + '\n');
  return result;
}
