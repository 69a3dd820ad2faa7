/**
 * `tool-result-contract/budget` — fit tool results to a size budget (SPEC Z1–Z7): structural
 * trimming with exact books, a summary zone, external resources, opaque handles, streaming.
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { fit } from './fit.js';
export { fitStream } from './fit-stream.js';
export type { StreamOptions } from './fit-stream.js';
export { fileChunks, FILE_CHUNK_BYTES } from './file-chunks.js';
export type { FitContext } from './context.js';
export { resolveBudget, summaryReserve, DEFAULT_BUDGET, MIN_TOKENS, MIN_BYTES } from './budget.js';
export type { Budget, ResolvedBudget } from './budget.js';
export { o200kCounter, gptTokenizerO200kCounter, counterFrom, isO200kLoaded, isGptTokenizerO200kLoaded } from './token-counter.js';
export type { TokenCounter } from './token-counter.js';
export { createTiktokenCounter } from './o200k-compact.js';
export type { TiktokenCounterOptions, LazyTokenCounter } from './o200k-compact.js';
export { measureVisible } from './search.js';
export type { VisibleSize } from './search.js';
export { trimValue, codePointLength } from './trim.js';
export type { TrimLimits, TrimOutcome, Protection, DroppedList } from './trim.js';
export { ListStats, MAX_TRACKED_FIELDS } from './list-stats.js';
export type { ListStatsJson, FieldStats } from './list-stats.js';
export {
  mintHandle,
  readHandle,
  openResource,
  newHandleId,
  handleFromUri,
  HANDLE_ERROR_CODES,
  RESOURCE_URI_PREFIX,
  DEFAULT_HANDLE_TTL_MS,
} from './handles.js';
export type { MintInput, ReadAccess } from './handles.js';
export { page } from './page.js';
export type { PageContext } from './page.js';
export { JsonArraySplitter } from './json-array-splitter.js';
export { JsonLinesSplitter } from './json-lines-splitter.js';
export type { SourcePosition } from './json-array-splitter.js';
export { findJsonError } from './json-error-position.js';
export type { JsonErrorPosition } from './json-error-position.js';
