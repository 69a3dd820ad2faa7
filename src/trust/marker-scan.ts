/**
 * Structural markers of the instruction detector: chat-template and role tags, fake turns,
 * tool-call lookalikes, markdown/HTML exfiltration links. One pass over the normalized text;
 * every look-ahead or look-behind is bounded and stops at the next delimiter, so the scan is
 * linear in the text length.
 */

/** One marker found, in normalized-text offsets. */
export interface MarkerHit {
  readonly id: string;
  readonly family: string;
  readonly strong: boolean;
  readonly start: number;
  readonly end: number;
}

// Bracketed words that only chat templates and prompt-injection payloads use.
const ROLE_TAGS = new Set([
  'system', 'system_message', 'system_prompt', 'system_instructions', 'sys', 'inst', 'im_start', 'im_end',
  'assistant', 'developer', 'admin', 'information', 'important', 'instructions', 'instruction', 'new_instructions',
  'start_header_id', 'end_header_id', 'eot_id', 'start_of_turn', 'end_of_turn', 'system_override',
  'sudo', 'root_prompt', 'hidden_instructions', 'prompt', 'user_query', 'user_instructions', 'ai_instructions',
]);
const TOOL_TAGS = new Set([
  'tool_call', 'tool_calls', 'function_call', 'function_calls', 'tool_use', 'invoke', 'tool_code', 'tool_request',
  'antml:invoke', 'python_tag', 'tool_calls_begin', 'tool_call_begin', 'function_results', 'tool_result',
]);
// Strong role labels at a line start ("Assistant:"); weak ones need a second role to count.
const STRONG_TURN = new Set([
  'assistant', 'ai', 'chatgpt', 'gpt', 'claude', 'ai assistant', 'system prompt', 'system message', 'new instructions',
  'new instruction', 'system override', 'admin override', 'developer override', 'system instruction', 'system instructions',
]);
const WEAK_TURN = new Set(['user', 'human', 'system']);
const REACT = new Set(['thought', 'action', 'action input', 'observation', 'final answer']);
const HASH_STRONG = new Set(['system', 'system_message', 'system_prompt', 'assistant', 'human', 'developer', 'admin', 'new_instructions']);
const HASH_WEAK = new Set(['instruction', 'instructions', 'response', 'user', 'input']);
const TODO_LABEL = new Set(['todo', 'to do', 'to-do', 'task', 'new task', 'urgent task', 'action required']);
// Imperatives an agent acts on: a to-do line starting with one is a task handed to the reader.
const ACTION_VERBS = new Set([
  'send', 'transfer', 'email', 'forward', 'delete', 'remove', 'create', 'invite', 'pay', 'make', 'get', 'tell',
  'change', 'update', 'post', 'share', 'visit', 'download', 'give', 'write', 'read', 'say', 'please', 'schedule',
  'book', 'reserve', 'add', 'insert', 'summarize', 'find', 'buy', 'order', 'modify', 'upload', 'publish',
  'export', 'grant', 'reset', 'sell', 'move', 'copy', 'call', 'run', 'execute', 'install', 'open', 'click',
  'go', 'navigate', 'reply', 'respond', 'concatenate', 'set', 'cancel', 'approve', 'disable', 'enable', 'print',
  'reveal', 'ignore', 'search', 'fetch', 'retrieve', 'list', 'rename', 'post', 'message', 'contact', 'notify',
]);
const JSON_NAME_KEYS = ['"name"', "'name'", '"tool"', '"function"', '"tool_name"', '"recipient_name"', '"action"', "'tool'", "'function'"];
const JSON_ARG_STRONG = ['"arguments"', "'arguments'", '"tool_input"', '"action_input"'];
const JSON_ARG_WEAK = ['"parameters"', '"args"', '"input"', "'parameters'", "'args'"];
const JSON_CALL_KEYS = ['"tool_calls"', '"function_call"', '"tool_use"', '"tool_code"', '"functioncall"'];
// Chat-API message objects forged inside data.
const JSON_ROLE_KEYS = ['"role": "system"', '"role":"system"', '"role": "developer"', '"role":"developer"'];
/** Every rule id the marker scan reports (the rule-id registry reads it; a test holds it to the code). */
export const MARKER_RULE_IDS: readonly string[] = [
  'exfil.html-image', 'exfil.markdown-image', 'exfil.markdown-template', 'exfil.url-template', 'hijack.todo',
  'role.hash-header', 'role.hash-header-weak', 'role.json-message', 'role.special-token', 'role.tag', 'role.turn',
  'role.turns', 'role.user-tag', 'tool.json-call', 'tool.json-call-key', 'tool.json-call-weak', 'tool.react',
  'tool.react-action', 'tool.tag',
];
const NEAR = 300;
const MAX_POSITIONS = 4096;

/** Words the marker scan can fire on, for the detector's fast path (see trigger-scan). */
export interface MarkerWords {
  /** Bracketed words: role and tool tags, `user`, `function`, `img` (hyphens read as `_`). */
  readonly tags: readonly string[];
  /** Words after `##`. */
  readonly hashHeaders: readonly string[];
  /** The last word of every line label (`assistant`, `action input` → `input`, `to-do` → `do`). */
  readonly labelEnds: readonly string[];
  /** Quoted JSON keys (`"arguments"`, `"role"`…). */
  readonly jsonKeys: readonly string[];
}

/**
 * The marker scan's trigger words: text without any of them in marker position has no marker.
 * @example markerWords().tags.includes('im_start') // true
 */
export function markerWords(): MarkerWords {
  const lastWord = (label: string): string => label.split(/[^a-z0-9]+/).filter((w) => w !== '').pop() ?? label;
  const quoted = [...JSON_NAME_KEYS, ...JSON_ARG_STRONG, ...JSON_ARG_WEAK, ...JSON_CALL_KEYS, ...JSON_ROLE_KEYS]
    .map((k) => k.slice(1, k.indexOf(k[0] ?? '"', 1)));
  return {
    tags: [...ROLE_TAGS, ...TOOL_TAGS, 'user', 'function', 'img'],
    hashHeaders: [...HASH_STRONG, ...HASH_WEAK],
    labelEnds: [...new Set([...STRONG_TURN, ...WEAK_TURN, ...REACT, ...TODO_LABEL].map(lastWord))],
    jsonKeys: [...new Set(quoted.filter((k) => !JSON_NAME_KEYS.some((n) => n.slice(1, -1) === k)))],
  };
}

function isLabelChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d || c === 0x20 || (c >= 0x30 && c <= 0x39);
}
function isTagChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d || c === 0x3a || (c >= 0x30 && c <= 0x39);
}
function isUrlEnd(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x29 || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x27 || Number.isNaN(c);
}

function positions(text: string, needle: string): number[] {
  const out: number[] = [];
  let at = text.indexOf(needle);
  while (at !== -1 && out.length < MAX_POSITIONS) {
    out.push(at);
    at = text.indexOf(needle, at + needle.length);
  }
  return out;
}

function allPositions(text: string, needles: readonly string[]): number[] {
  return needles.flatMap((n) => positions(text, n)).sort((a, b) => a - b);
}

// A template slot the reader is meant to fill: {data}, {{secret}}, [DATA], <data>, $SECRET, %7Bdata%7D.
const PLACEHOLDER = /^(?:\{\{?|[[<$]|%7b|%5b|%3c)[a-z_][\w .-]{0,40}/;

/**
 * How a URL's query could carry data out: a template placeholder as a value (`?q={history}`,
 * `?d=$SECRET`), or a long or prose-like value. Short settings (`?style=flat`, `?v=2`) carry nothing.
 */
function queryCarriesData(url: string): 'placeholder' | 'data' | null {
  const q = url.indexOf('?');
  if (q === -1) return null;
  let verdict: 'placeholder' | 'data' | null = null;
  for (const pair of url.slice(q + 1, q + 2049).split('&')) {
    const eq = pair.indexOf('=');
    if (eq === -1) continue;
    const value = pair.slice(eq + 1);
    if (PLACEHOLDER.test(value)) return 'placeholder';
    if (value.length >= 40 || (value.length >= 12 && (value.includes('%20') || value.split('+').length > 3))) verdict = 'data';
  }
  return verdict;
}

function readUrl(text: string, from: number): number {
  let e = from;
  const cap = Math.min(text.length, from + 4096);
  while (e < cap && !isUrlEnd(text.charCodeAt(e))) e++;
  return e;
}

/**
 * Where the line label ending at the `:` at `i` of normalized text starts, when one starts a
 * line or sentence there (the label is up to 24 characters of letters, digits, `_`, `-` and
 * spaces), else -1.
 * @example labelStart('ok.\nassistant: hi', 12) // 4
 */
export function labelStart(text: string, i: number): number {
  let s = i;
  while (s > 0 && i - s < 24 && isLabelChar(text.charCodeAt(s - 1))) s--;
  while (s < i && text.charCodeAt(s) === 0x20) s++;
  const before = s === 0 ? 0x0a : text.charCodeAt(s - 1);
  const before2 = s < 2 ? 0x0a : text.charCodeAt(s - 2);
  const lineStart = before === 0x0a || before === 0x2a || before === 0x3e || before === 0x22 ||
    (before === 0x20 && (before2 === 0x2e || before2 === 0x21 || before2 === 0x3f || before2 === 0x0a || before2 === 0x22));
  return lineStart && s < i ? s : -1;
}

/**
 * Whether `label` (trimmed, normalized) is one the marker scan acts on: a role turn, a ReAct
 * step or a to-do label.
 * @example isTurnLabel('action input') // true
 */
export function isTurnLabel(label: string): boolean {
  return STRONG_TURN.has(label) || WEAK_TURN.has(label) || REACT.has(label) || TODO_LABEL.has(label);
}

/**
 * Scan normalized text for structural markers.
 * @example scanMarkers('<|im_start|>system').map((h) => h.family) // ['role_marker']
 */
export function scanMarkers(text: string, limit = 256): MarkerHit[] {
  const hits: MarkerHit[] = [];
  const add = (id: string, family: string, strong: boolean, start: number, end: number): void => {
    if (hits.length < limit) hits.push({ id, family, strong, start, end });
  };
  const n = text.length;
  const turns = new Map<string, [number, number]>();
  let urlScannedUntil = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3c || c === 0x5b || c === 0x7b || c === 0x28) {
      // <tag>, [tag], {tag}, (tag), </tag>, <|tag|>
      const close = c === 0x3c ? 0x3e : c === 0x5b ? 0x5d : c === 0x7b ? 0x7d : 0x29;
      let j = i + 1;
      if (text.charCodeAt(j) === c) j++; // {{system}}, <<sys>>
      if (text.charCodeAt(j) === 0x2f) j++;
      const pipe = text.charCodeAt(j) === 0x7c;
      if (pipe) j++;
      const ws = j;
      while (j < n && j - ws < 40 && isTagChar(text.charCodeAt(j))) j++;
      if (j === ws) continue;
      const next = text.charCodeAt(j);
      // Only a word closed right away (or <img …, <function=) can be a marker: skip the slice otherwise.
      if (!(next === close || next === 0x7c || next === 0x3d || (c === 0x3c && next === 0x20))) continue;
      const word = text.slice(ws, j).replace(/[ -]/g, '_');
      if (pipe) {
        if (text.charCodeAt(j) === 0x7c && text.charCodeAt(j + 1) === 0x3e) add('role.special-token', 'role_marker', true, i, j + 2);
        continue;
      }
      if (c === 0x3c && word === 'img') {
        // <img src="https://host/?q=..."> — the tag's own attributes, up to the next < or >.
        let k = j;
        while (k < n && k - j < 2048 && text.charCodeAt(k) !== 0x3e && text.charCodeAt(k) !== 0x3c) k++;
        const tag = text.slice(j, k);
        const src = tag.indexOf('http');
        const carries = src === -1 ? null : queryCarriesData(tag.slice(src, readUrl(tag, src)));
        if (carries !== null) add('exfil.html-image', 'exfiltration', carries === 'placeholder', i, k);
        continue;
      }
      let end = j;
      if (text.charCodeAt(end) === close) end++;
      else if (c === 0x3c && word === 'function' && text.charCodeAt(end) === 0x3d) end++;
      else continue;
      if (text.charCodeAt(end) === close) end++;
      if (TOOL_TAGS.has(word) || (c === 0x3c && word === 'function')) add('tool.tag', 'tool_call', true, i, end);
      else if (ROLE_TAGS.has(word) && (c !== 0x28 || word.startsWith('system'))) add('role.tag', 'role_marker', true, i, end);
      else if (word === 'user' && c !== 0x28) add('role.user-tag', 'role_marker', false, i, end);
    } else if (c === 0x23 && text.charCodeAt(i - 1) !== 0x23 && text.charCodeAt(i + 1) === 0x23) {
      // "### system", "##(system_message)"
      let j = i;
      while (j < n && text.charCodeAt(j) === 0x23) j++;
      while (j < n && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x28 || text.charCodeAt(j) === 0x5b)) j++;
      const ws = j;
      while (j < n && j - ws < 30 && isTagChar(text.charCodeAt(j)) && text.charCodeAt(j) !== 0x3a) j++;
      const word = text.slice(ws, j).replace(/[ -]/g, '_');
      if (HASH_STRONG.has(word)) add('role.hash-header', 'role_marker', true, i, j);
      else if (HASH_WEAK.has(word)) add('role.hash-header-weak', 'role_marker', false, i, j);
    } else if (c === 0x3a) {
      // "Assistant:" / "Action Input:" / "TODO:" at the start of a line or sentence.
      const s = labelStart(text, i);
      if (s < 0) continue;
      const label = text.slice(s, i).trim();
      if (STRONG_TURN.has(label)) add('role.turn', 'role_marker', true, s, i + 1);
      if (STRONG_TURN.has(label) || WEAK_TURN.has(label)) {
        const role = label === 'human' ? 'user' : STRONG_TURN.has(label) ? 'assistant' : label;
        if (!turns.has(role)) turns.set(role, [s, i + 1]);
      }
      if (REACT.has(label) && !turns.has('react:' + label)) turns.set('react:' + label, [s, i + 1]);
      if (TODO_LABEL.has(label)) {
        let k = i + 1;
        while (k < n && text.charCodeAt(k) === 0x20) k++;
        let e = k;
        while (e < n && e - k < 20 && text.charCodeAt(e) >= 0x61 && text.charCodeAt(e) <= 0x7a) e++;
        if (ACTION_VERBS.has(text.slice(k, e))) add('hijack.todo', 'task_hijack', true, s, e);
      }
    } else if (c === 0x5d && text.charCodeAt(i + 1) === 0x28 && i + 2 > urlScannedUntil) {
      // [text](url) and ![alt](url)
      let s = i - 1;
      while (s >= 0 && i - s < 512 && text.charCodeAt(s) !== 0x5b && text.charCodeAt(s) !== 0x5d && text.charCodeAt(s) !== 0x0a) s--;
      const image = s > 0 && text.charCodeAt(s) === 0x5b && text.charCodeAt(s - 1) === 0x21;
      const e = readUrl(text, i + 2);
      urlScannedUntil = e;
      const url = text.slice(i + 2, e);
      if (!url.startsWith('http') && !url.startsWith('//')) continue;
      const carries = queryCarriesData(url);
      const start = image ? s - 1 : Math.max(s, 0);
      if (carries === 'placeholder') add('exfil.markdown-template', 'exfiltration', true, start, e);
      else if (image && carries === 'data') add('exfil.markdown-image', 'exfiltration', false, start, e);
    }
  }
  // A user turn next to a system or assistant turn is a forged conversation.
  const roles = ['user', 'system', 'assistant'].filter((r) => turns.has(r));
  if (turns.has('user') && roles.length >= 2) {
    const spans: [number, number][] = roles.map((r) => turns.get(r) ?? [0, 0]);
    add('role.turns', 'role_marker', true, Math.min(...spans.map((x) => x[0])), Math.max(...spans.map((x) => x[1])));
  }
  const action = turns.get('react:action');
  if (action !== undefined) {
    const other = turns.get('react:action input') ?? turns.get('react:thought') ?? turns.get('react:observation');
    add(other !== undefined ? 'tool.react' : 'tool.react-action', 'tool_call', other !== undefined, action[0], Math.max(action[1], other?.[1] ?? 0));
  }
  scanUrls(text, add);
  scanJsonCalls(text, add);
  return hits;
}

type Add = (id: string, family: string, strong: boolean, start: number, end: number) => void;

function scanUrls(text: string, add: Add): void {
  let from = 0;
  let found = 0;
  while (found < MAX_POSITIONS) {
    const at = text.indexOf('http', from);
    if (at === -1) return;
    const e = readUrl(text, at);
    from = Math.max(e, at + 4);
    found++;
    const url = text.slice(at, e);
    if (!url.startsWith('http://') && !url.startsWith('https://')) continue;
    if (queryCarriesData(url) === 'placeholder') add('exfil.url-template', 'exfiltration', false, at, e);
  }
}

function scanJsonCalls(text: string, add: Add): void {
  for (const key of JSON_CALL_KEYS) {
    const at = text.indexOf(key);
    if (at !== -1) add('tool.json-call-key', 'tool_call', true, at, at + key.length);
  }
  // A forged chat message has a role and a content; a user record's "role": "developer" has no content.
  for (const p of allPositions(text, JSON_ROLE_KEYS).slice(0, 64)) {
    const window = text.slice(Math.max(0, p - NEAR), p + NEAR);
    if (window.includes('"content"')) {
      const key = JSON_ROLE_KEYS.find((k) => text.startsWith(k, p)) ?? '';
      add('role.json-message', 'role_marker', true, p, p + key.length);
      break;
    }
  }
  for (const [keys, strong] of [[JSON_ARG_STRONG, true], [JSON_ARG_WEAK, false]] as const) {
    // Argument keys are rare; look for a name key only in a bounded window around each.
    for (const p of allPositions(text, keys).slice(0, 64)) {
      const window = text.slice(Math.max(0, p - NEAR), p + NEAR);
      if (JSON_NAME_KEYS.some((k) => window.includes(k))) {
        add(strong ? 'tool.json-call' : 'tool.json-call-weak', 'tool_call', strong, Math.max(0, p - 1), p + 12);
        break;
      }
    }
  }
}
