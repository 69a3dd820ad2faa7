/**
 * The one place that builds Ajv instances, so every module validates JSON Schema the same way.
 *
 * Ajv and ajv-formats are loaded on the first call, not on import: the envelope itself is
 * checked by pre-generated code (`generated/envelope-validators.ts`), so importing the contract
 * must not pay for Ajv's compiler (~10 MB) unless a module really compiles a schema.
 */
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';

type Ajv2020Class = typeof Ajv2020;
type AddFormats = (ajv: Ajv2020) => Ajv2020;

/** The options of `createAjv2020()`; the generator of the envelope validators uses them too. */
export const AJV_2020_OPTIONS = { allErrors: true, strict: false, validateFormats: true } as const;

let loaded: { Ajv2020: Ajv2020Class; addFormats: AddFormats } | undefined;

function load(): { Ajv2020: Ajv2020Class; addFormats: AddFormats } {
  if (loaded === undefined) {
    // Both packages are CommonJS; `require` keeps the load synchronous so the API stays sync.
    const require = createRequire(import.meta.url);
    const ajvModule = require('ajv/dist/2020') as { Ajv2020: Ajv2020Class };
    const formatsModule = require('ajv-formats') as AddFormats & { default?: AddFormats };
    loaded = { Ajv2020: ajvModule.Ajv2020, addFormats: formatsModule.default ?? formatsModule };
  }
  return loaded;
}

/**
 * A draft 2020-12 Ajv with formats, collecting all errors. Loads Ajv on the first call.
 * @example
 * const check = createAjv2020().compile({ type: 'object', required: ['id'] });
 * check({}); // false, check.errors names the missing property
 */
export function createAjv2020(): Ajv2020 {
  const { Ajv2020: Ajv, addFormats } = load();
  return addFormats(new Ajv({ ...AJV_2020_OPTIONS }));
}

export type { ErrorObject, ValidateFunction };
