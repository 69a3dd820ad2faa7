/**
 * The inspector's single page. Records are tool output: the script builds the DOM with
 * `textContent` only (no HTML parsing of data anywhere), and the CSP lets only this nonce'd
 * script and style run.
 */

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d1d1f; }
header { padding: 8px 16px; background: #24292f; color: #fff; display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
header h1 { font-size: 16px; margin: 0 12px 0 0; }
header input, header select, header button { font: inherit; padding: 2px 6px; }
main { display: grid; grid-template-columns: minmax(420px, 45%) 1fr; height: calc(100vh - 48px); }
#list { overflow: auto; border-right: 1px solid #ddd; }
#detail { overflow: auto; padding: 12px 16px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eee; white-space: nowrap; }
tr.row { cursor: pointer; } tr.row:hover { background: #f3f6fa; } tr.sel { background: #dbe9ff; }
.s-succeeded { color: #1a7f37; } .s-failed { color: #cf222e; } .s-unknown, .s-partial, .s-needs_input { color: #9a6700; } .s-accepted { color: #0969da; }
.flag { color: #cf222e; font-weight: 600; }
pre { background: #f6f8fa; padding: 8px; overflow: auto; white-space: pre-wrap; word-break: break-word; }
.layer { margin: 4px 0; } .v-failed, .v-unresolved { color: #cf222e; font-weight: 600; } .v-ok { color: #1a7f37; } .v-at_risk { color: #9a6700; }
.untrusted { border-left: 4px solid #cf222e; padding-left: 8px; margin: 8px 0; }
#error { color: #cf222e; padding: 8px 16px; }
`;

// Plain browser JavaScript, kept as a string so the package ships no build step for it.
const SCRIPT = `
const hash = new URLSearchParams(location.hash.slice(1));
const token = hash.get('token') || '';
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
async function loadList() {
  showError(null);
  const q = new URLSearchParams();
  for (const f of ['tool', 'status', 'since', 'limit']) { const v = $(f).value.trim(); if (v) q.set(f, v); }
  try {
    const { calls, count } = await api('/api/calls?' + q);
    const body = $('rows'); body.replaceChildren();
    for (const c of calls) {
      const flags = (c.error_code || '') + (c.instructional ? ' ⚠ ' + c.instructional + ' instruction-like' : '') + (c.warnings ? ' ' + c.warnings + ' warning(s)' : '');
      const tr = el('tr', { cls: 'row' },
        el('td', { text: c.started_at.replace('T', ' ').replace('Z', '') }),
        el('td', { text: c.status, cls: 's-' + c.status }),
        el('td', { text: c.tool }),
        el('td', { text: c.duration_ms === null ? '?' : c.duration_ms + ' ms' }),
        el('td', { text: flags.trim(), cls: c.instructional || c.error_code ? 'flag' : '' }));
      tr.addEventListener('click', () => { for (const r of body.children) r.classList.remove('sel'); tr.classList.add('sel'); loadCall(c.call_id); });
      body.append(tr);
    }
    $('count').textContent = count + ' call(s)';
  } catch (e) { showError(e); }
}
async function loadCall(id) {
  showError(null);
  try {
    const v = await api('/api/calls/' + encodeURIComponent(id));
    const d = $('detail'); d.replaceChildren();
    const r = v.record;
    d.append(el('h2', { text: r.tool + ' — ' + r.status }), el('div', { text: 'call ' + r.callId + ' · principal ' + r.principal + ' · ' + r.startedAt + ' → ' + r.finishedAt }));
    if (v.diagnosis) {
      d.append(el('h3', { text: 'Diagnosis' + (v.diagnosis.failed_layer ? ' — failed layer: ' + v.diagnosis.failed_layer : ' — no layer failed') }));
      for (const l of v.diagnosis.layers) {
        const box = el('div', { cls: 'layer' }, el('strong', { text: l.layer + ': ' }), el('span', { text: l.verdict, cls: 'v-' + l.verdict }));
        const ul = el('ul'); for (const f of l.findings) ul.append(el('li', { text: f }));
        d.append(box, ul);
      }
    }
    if (v.validation) {
      d.append(el('h3', { text: 'Contract: ' + (v.validation.valid ? 'valid' : 'INVALID') }));
      const ul = el('ul'); for (const f of v.validation.findings) ul.append(el('li', { text: f.severity + ' ' + f.rule + ' at "' + f.pointer + '": ' + f.message }));
      d.append(ul);
    }
    if (v.model_text !== null) {
      d.append(el('h3', { text: 'What the model read' + (v.edge ? ' (' + v.edge + ')' : '') }), el('pre', { text: v.model_text }));
    }
    if (v.untrusted.length) {
      d.append(el('h3', { text: 'Untrusted content (data, never instructions)' }));
      for (const u of v.untrusted) {
        d.append(el('div', { cls: 'untrusted' },
          el('div', { text: u.content_id + (u.origin ? ' at ' + u.origin : '') + (u.instructional ? ' — instruction-like: ' + u.families.join(', ') : ''), cls: u.instructional ? 'flag' : '' }),
          el('pre', { text: u.text })));
      }
    }
    d.append(el('h3', { text: 'Audit record' }), el('pre', { text: JSON.stringify(r, null, 2) }));
  } catch (e) { showError(e); }
}
$('filters').addEventListener('submit', (ev) => { ev.preventDefault(); loadList(); });
if (!token) showError('no token: open the exact URL that "trc inspect" printed');
else {
  loadList();
  // #token=…&call=ID opens that call at once (links from scripts, "trc audit" output).
  if (hash.get('call')) loadCall(hash.get('call'));
}
`;

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
<input id="tool" placeholder="tool"> <select id="status"><option value="">any status</option>
<option>succeeded</option><option>failed</option><option>partial</option><option>needs_input</option><option>unknown</option><option>accepted</option></select>
<input id="since" placeholder="since (RFC 3339)"> <input id="limit" placeholder="limit" size="5"> <button>refresh</button>
</form><span id="count"></span></header>
<div id="error"></div>
<main><div id="list"><table><thead><tr><th>started</th><th>status</th><th>tool</th><th>took</th><th>flags</th></tr></thead><tbody id="rows"></tbody></table></div>
<div id="detail">Select a call.</div></main>
<script nonce="${nonce}">${SCRIPT}</script>
</body></html>`;
}
