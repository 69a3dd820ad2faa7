/**
 * Override phrases in Chinese, Japanese and Korean, which do not separate words with spaces
 * (Korean attaches particles): a dismissal verb, an instruction noun and a reference to earlier
 * or all instructions within a short window, in any order ("忽略之前的所有指示",
 * "以前の指示を無視して", "이전 지시를 무시하고"). Bounded `indexOf` scans: linear time.
 */
import { normalizeText } from './normalize-text.js';

interface NearRule {
  readonly id: string;
  readonly anchors: readonly string[];
  readonly nouns: readonly string[];
  readonly prior: readonly string[];
}

const RULES: readonly NearRule[] = [
  {
    id: 'override.zh',
    anchors: ['忽略', '无视', '無視', '忘记', '忘掉', '忘記', '不要理会', '不理会', '忽视', '忽視', '别管', '抛开', '拋開'],
    nouns: ['指示', '指令', '说明', '說明', '规则', '規則', '提示', '命令', '设定', '設定', '要求', '约束', '限制'],
    prior: ['之前', '以上', '上述', '先前', '前面', '所有', '此前', '上面', '全部', '一切', '以前', '原来', '原來', '系统', '系統'],
  },
  {
    id: 'override.ja',
    anchors: ['無視', '忘れ', 'むし'],
    nouns: ['指示', '命令', '指令', 'ルール', 'プロンプト', '制約', '設定', '規則'],
    prior: ['以前', 'これまで', '前の', '上記', 'すべて', '全て', '今まで', '先の', 'システム', '元の'],
  },
  {
    id: 'override.ko',
    anchors: ['무시', '잊어', '잊고', '잊으'],
    nouns: ['지시', '명령', '지침', '규칙', '프롬프트', '설정', '안내', '제한'],
    prior: ['이전', '모든', '위의', '앞의', '기존', '지금까지', '시스템', '원래'],
  },
];

/** The ids of the rules above. */
export const CJK_RULE_IDS: readonly string[] = RULES.map((r) => r.id);

const BEFORE = 16;
const AFTER = 20;
const MAX_ANCHORS = 4096;

let compiled: NearRule[] | undefined;
function rules(): NearRule[] {
  const fold = (xs: readonly string[]): string[] => xs.map((x) => normalizeText(x).text);
  compiled ??= RULES.map((r) => ({ id: r.id, anchors: fold(r.anchors), nouns: fold(r.nouns), prior: fold(r.prior) }));
  return compiled;
}

/**
 * The first UTF-16 unit of every (normalized) anchor: normalized text holding none of them has
 * no CJK override, which lets the fast path skip this scan.
 * @example cjkAnchorStarts().has('忽'.charCodeAt(0)) // true
 */
export function cjkAnchorStarts(): ReadonlySet<number> {
  return new Set(rules().flatMap((r) => r.anchors.map((a) => a.charCodeAt(0))));
}

/** One CJK override found, in offsets of the normalized text. */
export interface CjkHit { readonly id: string; readonly start: number; readonly end: number }

/**
 * Find CJK override phrases in normalized text.
 * @example findCjkOverrides('忽略之前的所有指示')[0]?.id // 'override.zh'
 */
export function findCjkOverrides(text: string): CjkHit[] {
  const hits: CjkHit[] = [];
  for (const rule of rules()) {
    for (const anchor of rule.anchors) {
      let at = text.indexOf(anchor);
      let seen = 0;
      while (at !== -1 && seen++ < MAX_ANCHORS) {
        const lo = Math.max(0, at - BEFORE);
        const hi = Math.min(text.length, at + anchor.length + AFTER);
        const window = text.slice(lo, hi);
        if (rule.nouns.some((w) => window.includes(w)) && rule.prior.some((w) => window.includes(w))) {
          hits.push({ id: rule.id, start: lo, end: hi });
          break;
        }
        at = text.indexOf(anchor, at + anchor.length);
      }
    }
  }
  return hits;
}
