/**
 * The one model-facing rendering, as every adapter uses it: the executor's model text (made by
 * the pipeline's present stage, from the trust module's model view), so the OpenAI, Anthropic,
 * MCP and framework outputs tell the model the same thing. Provider wires have no room for
 * status, completeness or evidence, so they travel inside this JSON text.
 */
import { CONTRACT_VERSION, type Envelope, type Json } from '../../contract/index.js';
import { modelView as buildModelView, WITHHELD_TEXT } from '../../executor/index.js';
import { assertRenderable } from './renderable.js';

export { WITHHELD_TEXT };

const views = new WeakMap<Envelope, Record<string, Json>>();

/**
 * The JSON object the model reads for one tool call: the pipeline's presentation when it made
 * one, else the model view built from the envelope alone. Labelled sections keep facts,
 * evidence, warnings and external text apart (T2).
 * @example modelView(env).status // 'succeeded'
 */
export function modelView(env: Envelope): Record<string, Json> {
  const hit = views.get(env);
  if (hit !== undefined) return hit;
  assertRenderable(env);
  let view: Record<string, Json> | undefined;
  const text = env.presentation?.model_content;
  if (text !== undefined && text.startsWith('{"contract"')) {
    try {
      const parsed = JSON.parse(text) as Record<string, Json>;
      if (parsed['contract'] === CONTRACT_VERSION) view = parsed;
    } catch {
      view = undefined;
    }
  }
  if (view === undefined && text === undefined) view = buildModelView(env);
  if (view === undefined) {
    // A presentation of another shape (a custom stage's text) stands in for the data.
    const { presentation: _p, ...rest } = env;
    const { data: _d, ...base } = buildModelView(rest as Envelope);
    view = { ...base, content: text ?? '' };
  }
  views.set(env, view);
  return view;
}

/**
 * The model-facing text of an envelope (the executor's `renderModelText`), sharing the view
 * {@link modelView} built for it: a renderer that sends both the text and structured content
 * projects the envelope once. Both refuse an invalid envelope with
 * `TrcError('RENDER_INVALID_ENVELOPE')` (every wire renderer goes through them).
 * @example renderModelText(env) // '{"contract":"agent.tool.result.v1","call_id":"call_1",...}'
 */
export function renderModelText(env: Envelope): string {
  assertRenderable(env);
  return env.presentation?.model_content ?? JSON.stringify(modelView(env));
}

/** True for statuses the provider wires should flag as an error. */
export function isErrorStatus(env: Envelope): boolean {
  return env.status === 'failed' || env.status === 'unknown';
}
