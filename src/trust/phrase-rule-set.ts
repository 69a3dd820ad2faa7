/**
 * The instruction detector's phrase rule set: the base rules (instruction-phrases) and those of
 * the probe, agent-action and reader-directive modules, with their word groups as one record.
 * A group name defined in two modules is refused at start-up (`mergeGroups`).
 */
import { AGENT_ACTION_GROUPS, AGENT_ACTION_RULES } from './agent-action-phrases.js';
import { BASE_GROUPS, BASE_RULES } from './instruction-phrases.js';
import { mergeGroups, type PhraseRule } from './phrase-matcher.js';
import { PROBE_GROUPS, PROBE_RULES } from './probe-phrases.js';
import { READER_DIRECTIVE_GROUPS, READER_DIRECTIVE_RULES } from './reader-directive-phrases.js';

/** Named word lists used by the phrase rules (`@name`), every module's. */
export const PHRASE_GROUPS: Readonly<Record<string, readonly string[]>> = mergeGroups(BASE_GROUPS, PROBE_GROUPS, AGENT_ACTION_GROUPS, READER_DIRECTIVE_GROUPS);

/** Every phrase rule. `id` is stable and appears in scan output. */
export const PHRASE_RULES: readonly PhraseRule[] = [...BASE_RULES, ...PROBE_RULES, ...AGENT_ACTION_RULES, ...READER_DIRECTIVE_RULES];
