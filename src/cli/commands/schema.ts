/**
 * `trc schema [--minimal]`: print the published JSON Schema of the envelope.
 */
import { envelopeJsonSchema, minimalJsonSchema } from '../../contract/index.js';
import { type Command, println } from '../io.js';
import { parseFlags } from '../flags.js';

const HELP = `Usage: trc schema [--minimal]

Print the JSON Schema (draft 2020-12) of the agent.tool.result.v1 envelope to stdout.
It is the same document the package ships as schema/agent.tool.result.v1.json, generated
from the single TypeBox definition; use it to validate envelopes from any language.

The schema covers the shape only. The semantic rules (status vs data vs error, cursors vs
completeness, result_digest, evidence pointers, side effects) are checked by "trc validate".

Options:
  --minimal   print the minimal profile instead (schema/agent.tool.result.minimal.v1.json):
              status, data, error, completeness, provenance, evidence, untrusted_content,
              side_effect, warnings; for tools that cannot yet produce the full envelope
  -h, --help  show this help

Exit codes: 0 printed, 2 usage error.

Examples:
  trc schema > agent.tool.result.v1.json
  trc schema --minimal | jq '.required'`;

/** `trc schema`. */
export const command: Command = {
  name: 'schema',
  summary: 'print the envelope JSON Schema (draft 2020-12)',
  help: HELP,
  run(argv, io) {
    const { values } = parseFlags({ args: [...argv], options: { minimal: { type: 'boolean', default: false } }, allowPositionals: false, strict: true });
    const minimal = values.minimal;
    println(io.stdout, JSON.stringify(minimal ? minimalJsonSchema() : envelopeJsonSchema(), null, 2));
    return Promise.resolve(0);
  },
};
