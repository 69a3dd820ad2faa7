/**
 * The `trc demo` session: a scripted agent run (no LLM) over a real SQLite business database,
 * a local HTTP carrier service and the SQLite trc store.
 *
 * Any new export added here becomes public API. Use named exports, not wildcards.
 */
export { runDemo } from './run-demo.js';
export type { RunDemoOptions } from './run-demo.js';
export { renderText } from './render-text.js';
export type { RenderOptions } from './render-text.js';
export { demoPaths, prepareDemoPaths, defaultDemoStore, DEMO_STORE_FILE } from './paths.js';
export type { DemoPaths } from './paths.js';
export type { DemoTranscript, DemoStep, DemoCall } from './transcript.js';
export { openWorld, WEB_PAGE_URL, WEB_PAGE_TEXT } from './world.js';
export type { World } from './world.js';
export { startCarrierService } from './carrier-service.js';
export type { CarrierService } from './carrier-service.js';
export { demoTools } from './tools.js';
export type { DemoToolOptions } from './tools.js';
