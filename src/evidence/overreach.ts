/**
 * Overreach (E3, D1 "model reading"): a claim that says more than the cited results allow —
 * a total or "all" from an incomplete result, an aggregate across sources with no declared
 * calculation, one side of an unresolved conflict, or an unknown outcome called a success or
 * a failure. English and Chinese wording.
 */
import type { Conflict, Envelope } from '../contract/index.js';
import type { TextValue } from './text-values.js';
import { textValueAgrees } from './value-match.js';
import { addToPool, emptyPool } from './value-pool.js';

const TOTAL_EN = /\b(?:total|totals|totalling|totaling|in all|all|every|entire|overall|altogether|whole|complete list)\b/i;
const TOTAL_ZH = /一共|总共|共计|共有|合计|总计|总数|总量|总额|全部|所有|全都|共\s*\d|总[库存]/u;
const CONCLUSION_EN = /\b(?:so|therefore|thus|hence|which means)\b/i;
const CONCLUSION_ZH = /所以|因此|因而|故而|应该是|应为|也就是说/u;
const OUTCOME_EN =
  /\b(?:succeeded|successful(?:ly)?|success|went through|completed|confirmed|failed|failure|unsuccessful|declined|rejected|did(?: not|n't) (?:go through|succeed|complete|happen)|(?:was|were|has been|have been) (?:charged|paid|refunded|created|placed|sent|processed|cancell?ed|booked|transferred|delivered|submitted))\b/i;
const OUTCOME_ZH = /成功|已完成|完成了|失败|未能|被拒绝|已(?:支付|付款|扣款|退款|下单|创建|发送|提交|处理|转账|取消|到账)/u;
const HEDGE_EN =
  /\b(?:unknown|not known|unclear|uncertain|may have|might have|may not|might not|possibly|pending|not (?:yet )?(?:been )?confirmed|cannot (?:yet )?confirm|can't confirm|unable to confirm|whether)\b/i;
const HEDGE_ZH = /未知|不确定|无法确认|尚未确认|未确认|待确认|可能|是否|不清楚|不明/u;

/** True when the sentence claims a total, a count of everything, or "all". */
export function claimsTotal(text: string): boolean {
  return TOTAL_EN.test(text) || TOTAL_ZH.test(text);
}

/** True when the sentence asserts an outcome (success or failure) without hedging. */
export function assertsOutcome(text: string): boolean {
  return (OUTCOME_EN.test(text) || OUTCOME_ZH.test(text)) && !(HEDGE_EN.test(text) || HEDGE_ZH.test(text));
}

function concludes(text: string): boolean {
  return claimsTotal(text) || CONCLUSION_EN.test(text) || CONCLUSION_ZH.test(text);
}

/** The call id for messages; untyped callers may omit the call block. */
export function callName(env: Envelope): string {
  const call = env.call as Envelope['call'] | undefined;
  return typeof call?.call_id === 'string' ? call.call_id : 'a cited result';
}

function conflictsOf(env: Envelope): Conflict[] {
  return Array.isArray(env.conflicts) ? env.conflicts.filter((c) => c !== null && typeof c === 'object') : [];
}

/**
 * Why `text` overreaches what `cited` (the envelopes behind its cited evidence) support; empty
 * when it does not.
 */
export function overreachReasons(text: string, values: readonly TextValue[], cited: readonly Envelope[]): string[] {
  const reasons: string[] = [];
  if (claimsTotal(text)) {
    for (const env of cited) {
      const state = env.completeness?.state ?? 'unknown';
      if (state !== 'complete') {
        const of = env.completeness?.returned_items ?? null;
        const avail = env.completeness?.available_items ?? null;
        const counts = of === null ? '' : ` (${of} returned of ${avail === null ? 'an unknown number' : avail})`;
        reasons.push(`claims a total or "all" from ${callName(env)}, whose completeness is "${state}"${counts}`);
      }
    }
  }
  const hasNumber = values.some((v) => v.kind === 'number');
  const conflicted = cited.some((e) => conflictsOf(e).some((c) => c.resolution === 'unresolved'));
  const calculated = cited.some((e) => e.calculation !== undefined);
  if (hasNumber && concludes(text) && !calculated && (cited.length >= 2 || conflicted)) {
    const what = cited.length >= 2 ? `${cited.length} results` : 'conflicting values';
    reasons.push(`draws a total or conclusion across ${what} with no declared calculation`);
  }
  for (const env of cited) {
    for (const conflict of conflictsOf(env)) {
      if (conflict.resolution !== 'unresolved' || !Array.isArray(conflict.values)) continue;
      const stated = conflict.values.filter((v) => {
        const pool = emptyPool();
        addToPool(pool, v.value);
        return values.some((tv) => textValueAgrees(tv, pool));
      });
      const distinct = new Set(conflict.values.map((v) => JSON.stringify(v.value)));
      if (stated.length === 0 || new Set(stated.map((v) => JSON.stringify(v.value))).size === distinct.size) continue;
      const named = stated.every((v) => {
        const name = typeof v.source === 'string' ? v.source : (v.source.name ?? v.source.id ?? v.source.type);
        return text.toLowerCase().includes(name.toLowerCase());
      });
      if (!named) reasons.push(`states one side of the unresolved conflict on "${conflict.field}" without naming its source`);
    }
  }
  if (assertsOutcome(text)) {
    for (const env of cited) {
      if (env.status === 'unknown') {
        reasons.push(`calls the outcome of ${callName(env)} a success or failure, but its status is "unknown"`);
      }
    }
  }
  return reasons;
}
