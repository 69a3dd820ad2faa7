/**
 * The inspector's single page. Records are tool output: the script builds the DOM with
 * `textContent` only (no HTML parsing of data anywhere), and the CSP lets only this nonce'd
 * script and style run. The filters and the open call live in the query string (back, forward
 * and reload keep them); the token stays in the fragment, so it never reaches a server log.
 */

const STYLE = `
html, body { height: 100%; }
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d1d1f; display: flex; flex-direction: column; }
header { padding: 6px 12px; background: #24292f; color: #fff; display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; }
header h1 { font-size: 16px; margin: 0; }
#filters { display: flex; gap: 4px; flex-wrap: wrap; align-items: center; }
header input, header select, header button { font: inherit; font-size: 13px; padding: 2px 4px; }
header input { width: 7.5em; } header input.time { width: 11.5em; } header input.num { width: 3.5em; }
#count, #live-status { font-size: 12px; }
#live-status.live { color: #7ee787; } #live-status.down { color: #ffa198; }
main { flex: 1; min-height: 0; display: grid; grid-template-columns: minmax(560px, 50%) 1fr; }
#list { overflow: auto; border-right: 1px solid #ddd; }
#detail { overflow: auto; padding: 12px 16px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eee; white-space: nowrap; vertical-align: top; }
td.flags { white-space: normal; overflow-wrap: anywhere; width: 100%; }
tr.row { cursor: pointer; } tr.row:hover { background: #f3f6fa; }
tr.row.sel { background: #dbe9ff; box-shadow: inset 4px 0 0 #0969da; }
tr.row.fresh td:first-child { font-weight: 600; }
tr.group td { background: #eef1f4; font-weight: 600; font-size: 12px; }
.s-succeeded { color: #1a7f37; } .s-failed { color: #cf222e; } .s-unknown, .s-partial, .s-needs_input { color: #9a6700; } .s-accepted { color: #0969da; }
.flag { color: #cf222e; font-weight: 600; }
pre { background: #f6f8fa; padding: 8px; overflow: auto; white-space: pre-wrap; word-break: break-word; margin: 4px 0; }
.block { border-left: 4px solid #8c959f; padding-left: 8px; margin: 8px 0; } .block-label { font-size: 12px; color: #57606a; }
.layer { margin: 4px 0; } .v-failed, .v-unresolved { color: #cf222e; font-weight: 600; } .v-ok { color: #1a7f37; } .v-at_risk { color: #9a6700; }
.untrusted { border-left: 4px solid #cf222e; padding-left: 8px; margin: 8px 0; }
#error { color: #cf222e; padding: 0 16px; }
`;

// Plain browser JavaScript, kept as a string so the package ships no build step for it.
const SCRIPT = `
const token = new URLSearchParams(location.hash.slice(1)).get('token') || '';
const FIELDS = ['status', 'tool', 'principal', 'run', 'session', 'since', 'until', 'limit', 'group'];
const $ = (id) => document.getElementById(id);
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) { if (k === 'text') node.textContent = v; else if (k === 'cls') node.className = v; else node.setAttribute(k, v); }
  for (const c of children) node.append(c);
  return node;
}
async function api(path) {
  const res = await fetch(path, { headers: { authorization: 'Bearer ' + token } });
  const body = await res.json();
  if (!res.ok) throw new Error((body.error && body.error.code ? body.error.code + ': ' : '') + (body.error ? body.error.message : res.status));
  return body;
}
function showError(e) { $('error').textContent = e ? String(e.message || e) : ''; }
let calls = [];
let selected = null;
let stream = null;
const filterQuery = () => { const q = new URLSearchParams(location.search); q.delete('call'); q.delete('group'); return q; };
function fromUrl() {
  const q = new URLSearchParams(location.search);
  for (const f of FIELDS) $(f).value = q.get(f) || '';
  selected = q.get('call') || new URLSearchParams(location.hash.slice(1)).get('call');
}
function toUrl(push) {
  const q = new URLSearchParams();
  for (const f of FIELDS) { const v = $(f).value.trim(); if (v) q.set(f, v); }
  if (selected) q.set('call', selected);
  const url = location.pathname + (q.toString() ? '?' + q : '') + location.hash;
  if (push) history.pushState(null, '', url); else history.replaceState(null, '', url);
}
const groupKey = (c, by) => by === 'principal' ? c.principal : by === 'run' ? c.run : by === 'session' ? c.session : null;
function row(c) {
  const flags = (c.error_code || '') + (c.instructional ? ' ⚠ ' + c.instructional + ' instruction-like' : '') + (c.warnings ? ' ' + c.warnings + ' warning(s)' : '');
  const tr = el('tr', { cls: 'row' + (c.call_id === selected ? ' sel' : '') + (c.fresh ? ' fresh' : ''), 'data-call': c.call_id, 'aria-selected': String(c.call_id === selected) },
    el('td', { text: c.started_at.slice(5, 19).replace('T', ' '), title: c.started_at }),
    el('td', { text: c.status, cls: 's-' + c.status }),
    el('td', { text: c.tool }),
    el('td', { text: c.principal }),
    el('td', { text: c.duration_ms === null ? '?' : c.duration_ms + ' ms' }),
    el('td', { text: flags.trim(), cls: 'flags' + (c.instructional || c.error_code ? ' flag' : '') }));
  tr.addEventListener('click', () => { selected = c.call_id; toUrl(false); renderRows(); loadCall(c.call_id); });
  return tr;
}
function renderRows() {
  const by = $('group').value;
  const body = $('rows'); body.replaceChildren();
  if (!by) { for (const c of calls) body.append(row(c)); }
  else {
    const groups = new Map();
    for (const c of calls) { const k = groupKey(c, by); if (!groups.has(k)) groups.set(k, []); groups.get(k).push(c); }
    for (const [k, list] of groups) {
      body.append(el('tr', { cls: 'group', 'data-group': k === null ? '' : k }, el('td', { colspan: '6', text: by + ': ' + (k === null ? '(none)' : k) + ' — ' + list.length + ' call(s)' })));
      for (const c of list) body.append(row(c));
    }
  }
  $('count').textContent = calls.length + ' call(s)';
}
async function loadList() {
  showError(null);
  try {
    const q = filterQuery();
    const got = await api('/api/calls?' + q);
    calls = got.calls;
    renderRows();
    follow(q);
  } catch (e) { showError(e); }
}
/** The live tail: an SSE stream read with fetch (it carries the token header; EventSource cannot). */
async function follow(q) {
  if (stream) stream.abort();
  const ctl = new AbortController(); stream = ctl;
  const newest = calls[0];
  let last = newest ? newest.started_at + '/' + encodeURIComponent(newest.call_id) : null;
  let retry = 2000;
  const status = (text, cls) => { $('live-status').textContent = text; $('live-status').className = cls; };
  while (!ctl.signal.aborted) {
    try {
      const headers = { authorization: 'Bearer ' + token };
      if (last) headers['last-event-id'] = last;
      const res = await fetch('/api/events?' + q, { headers, signal: ctl.signal });
      if (!res.ok || !res.body) throw new Error('tail: ' + res.status);
      status('live', 'live');
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let cut;
        while ((cut = buf.indexOf('\\n\\n')) >= 0) {
          const ev = { id: null, event: 'message', data: [] };
          for (const line of buf.slice(0, cut).split('\\n')) {
            const i = line.indexOf(':'); if (i === 0) continue;
            const k = i < 0 ? line : line.slice(0, i); const v = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
            if (k === 'id') ev.id = v; else if (k === 'event') ev.event = v; else if (k === 'data') ev.data.push(v); else if (k === 'retry' && /^\\d+$/.test(v)) retry = Number(v);
          }
          buf = buf.slice(cut + 2);
          if (ev.id !== null) last = ev.id;
          if (ev.event === 'call') arrived(JSON.parse(ev.data.join('\\n')));
        }
      }
    } catch (e) { if (ctl.signal.aborted) return; }
    if (ctl.signal.aborted) return;
    status('reconnecting…', 'down');
    await new Promise((r) => setTimeout(r, retry));
  }
}
function arrived(c) {
  if (calls.some((x) => x.call_id === c.call_id)) return;
  c.fresh = true;
  calls.unshift(c);
  renderRows();
}
function section(d, title, id) { const s = el('section', { id }); s.append(el('h3', { text: title })); d.append(s); return s; }
function showSeen(d, seen, edge) {
  const s = section(d, 'What the model saw' + (edge ? ' (' + edge + ')' : ''), 'model-seen');
  if (seen.wire === 'text') { s.append(el('pre', { text: seen.text })); return; }
  if (seen.wire === 'jsonrpc-error') { s.append(el('div', { text: (seen.http_status ? 'HTTP ' + seen.http_status + ', ' : '') + 'JSON-RPC error ' + seen.code + ': ' + seen.message, cls: 'flag' })); return; }
  if (seen.is_error) s.append(el('div', { text: 'isError: true', cls: 'flag' }));
  seen.blocks.forEach((b, i) => {
    const label = 'content[' + i + '] ' + (b && b.type ? b.type : '?');
    const shown = b && b.type === 'text' ? b.text : JSON.stringify(b, null, 2);
    s.append(el('div', { cls: 'block' }, el('div', { text: label, cls: 'block-label' }), el('pre', { text: shown })));
  });
  if (seen.structured !== null) s.append(el('div', { cls: 'block' }, el('div', { text: 'structuredContent', cls: 'block-label' }), el('pre', { text: JSON.stringify(seen.structured, null, 2) })));
}
async function loadCall(id) {
  showError(null);
  try {
    const v = await api('/api/calls/' + encodeURIComponent(id));
    const d = $('detail'); d.replaceChildren();
    const r = v.record;
    d.append(el('h2', { text: r.tool + ' — ' + r.status }), el('div', { text: 'call ' + r.callId + ' · principal ' + r.principal + ' · ' + r.startedAt + ' → ' + r.finishedAt }));
    const a = section(d, 'Arguments (secrets masked)', 'args');
    if (v.args === null) a.append(el('div', { text: 'not recorded (only the digest ' + r.argsDigest + ')' }));
    else if ('value' in v.args) a.append(el('pre', { text: JSON.stringify(v.args.value, null, 2) }));
    else a.append(el('div', { text: 'too large to keep: the first ' + v.args.preview.length + ' of ' + v.args.chars + ' characters' }), el('pre', { text: v.args.preview }));
    if (v.model_seen) showSeen(d, v.model_seen, v.edge);
    if (v.untrusted.length) {
      const u0 = section(d, 'Untrusted content (data, never instructions)', 'untrusted');
      for (const u of v.untrusted) {
        u0.append(el('div', { cls: 'untrusted' },
          el('div', { text: u.content_id + (u.origin ? ' at ' + u.origin : '') + (u.instructional ? ' — instruction-like: ' + u.families.join(', ') : ''), cls: u.instructional ? 'flag' : '' }),
          el('pre', { text: u.text })));
      }
    }
    if (v.diagnosis) {
      const s = section(d, 'Diagnosis' + (v.diagnosis.failed_layer ? ' — failed layer: ' + v.diagnosis.failed_layer : ' — no layer failed'), 'diagnosis');
      for (const l of v.diagnosis.layers) {
        const ul = el('ul'); for (const f of l.findings) ul.append(el('li', { text: f }));
        s.append(el('div', { cls: 'layer' }, el('strong', { text: l.layer + ': ' }), el('span', { text: l.verdict, cls: 'v-' + l.verdict })), ul);
      }
    }
    if (v.validation) {
      const s = section(d, 'Contract: ' + (v.validation.valid ? 'valid' : 'INVALID'), 'validation');
      const ul = el('ul'); for (const f of v.validation.findings) ul.append(el('li', { text: f.severity + ' ' + f.rule + ' at "' + f.pointer + '": ' + f.message }));
      s.append(ul);
    }
    section(d, 'Audit record', 'record').append(el('pre', { text: JSON.stringify(r, null, 2) }));
  } catch (e) { showError(e); }
}
$('filters').addEventListener('submit', (ev) => { ev.preventDefault(); toUrl(true); loadList(); });
$('group').addEventListener('change', () => { toUrl(true); renderRows(); });
window.addEventListener('popstate', () => { fromUrl(); loadList(); if (selected) loadCall(selected); });
fromUrl();
if (!token) showError('no token: open the exact URL that "trc inspect" printed');
else {
  loadList();
  // ?call=ID (or #token=…&call=ID) opens that call at once (links from scripts, "trc audit" output).
  if (selected) loadCall(selected);
}
`;

const opt = (values: readonly string[]): string => values.map((v) => `<option>${v}</option>`).join('');

/**
 * The HTML of the inspector page, with `nonce` on its script and style.
 * @example res.end(inspectorPage(nonce));
 */
export function inspectorPage(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>trc inspector</title><style nonce="${nonce}">${STYLE}</style></head>
<body>
<header><h1>trc inspector</h1>
<form id="filters">
<select id="status" aria-label="status"><option value="">any status</option>${opt(['succeeded', 'failed', 'partial', 'needs_input', 'unknown', 'accepted'])}</select>
<input id="tool" placeholder="tool" aria-label="tool"> <input id="principal" placeholder="principal" aria-label="principal">
<input id="run" placeholder="run" aria-label="run"> <input id="session" placeholder="session" aria-label="session">
<input id="since" class="time" placeholder="since (RFC 3339)" aria-label="since"> <input id="until" class="time" placeholder="until (RFC 3339)" aria-label="until">
<input id="limit" class="num" placeholder="limit" aria-label="limit">
<select id="group" aria-label="group by"><option value="">no grouping</option><option value="session">by session</option><option value="run">by run</option><option value="principal">by principal</option></select>
<button>apply</button>
</form><span id="count"></span><span id="live-status"></span></header>
<div id="error"></div>
<main><div id="list"><table><thead><tr><th>started</th><th>status</th><th>tool</th><th>principal</th><th>took</th><th>flags</th></tr></thead><tbody id="rows"></tbody></table></div>
<div id="detail">Select a call.</div></main>
<script nonce="${nonce}">${SCRIPT}</script>
</body></html>`;
}
