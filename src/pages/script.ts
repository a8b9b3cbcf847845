// The one script of the pages, inlined where a form starts a job: it submits the form with
// fetch, follows the task it answers as SPEC §4.3 tells any client (poll the task URI until it
// leaves 202), shows the progress, and links the result. Plain ES2020, no build step.
import { html, raw, type Html } from './html.ts';

/** The script's text: its hash is in the pages' Content-Security-Policy (pagePolicy.ts). */
export const PAGE_SCRIPT = String.raw`
(function () {
  function find(node, suffix) {
    if (node === null || typeof node !== 'object') return undefined;
    for (var k in node) {
      if (k.slice(-suffix.length) === suffix) { var v = node[k]; return v && typeof v === 'object' && '@value' in v ? v['@value'] : (v && v['@id']) || v; }
    }
    for (var j in node) { var r = find(node[j], suffix); if (r !== undefined) return r; }
    return undefined;
  }
  function show(box, state) {
    box.hidden = false;
    box.querySelector('.status').textContent = state.text;
    var bar = box.querySelector('progress');
    if (state.percent !== undefined) bar.value = state.percent;
    var out = box.querySelector('.result');
    if (state.links) {
      out.textContent = '';
      state.links.forEach(function (u) { var a = document.createElement('a'); a.href = u; a.textContent = u; a.className = 'result-link'; out.appendChild(a); out.appendChild(document.createTextNode(' ')); });
    }
    if (state.error) { out.textContent = state.error; out.className = 'result error'; }
  }
  async function follow(box, task) {
    var link = box.querySelector('.task-link');
    if (link) { link.href = task; link.textContent = task; }
    for (;;) {
      var res = await fetch(task, { headers: { Accept: 'application/ld+json' } });
      var doc = await res.json().catch(function () { return {}; });
      var status = find(doc, 'hasStatus') || '';
      var percent = Number(find(doc, 'percentageCompleted'));
      if (res.status === 202) { show(box, { text: (status || 'Running') + (isFinite(percent) ? ' ' + percent + '%' : ''), percent: isFinite(percent) ? percent : undefined }); await new Promise(function (r) { setTimeout(r, 400); }); continue; }
      var list = await fetch(task, { headers: { Accept: 'text/uri-list' } });
      var text = (await list.text()).trim();
      if (res.status < 300) show(box, { text: 'Completed', percent: 100, links: text.split(/\r?\n/).filter(Boolean) });
      else show(box, { text: status || 'Error ' + res.status, error: find(doc, 'message') || text });
      return;
    }
  }
  async function answer(box, res) {
    var text = (await res.text()).trim();
    if (res.status === 202 || res.status === 201) return follow(box, text.split(/\r?\n/)[0]);
    if (res.ok) return show(box, { text: 'Done', percent: 100, links: text.split(/\r?\n/).filter(Boolean) });
    show(box, { text: 'Error ' + res.status, error: text });
  }
  window.opentoxFollow = follow;
  document.querySelectorAll('form[data-job]').forEach(function (form) {
    form.addEventListener('submit', async function (event) {
      event.preventDefault();
      var box = document.getElementById(form.dataset.job);
      show(box, { text: 'Sending', percent: 0 });
      try {
        var fields = new FormData(form);
        var smiles = fields.get('smiles');
        if (smiles) {
          // A typed structure becomes a compound first (SPEC §4.2), then is predicted by its URI.
          var made = await fetch(form.dataset.compounds, { method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: String(smiles) });
          if (!made.ok) return answer(box, made);
          fields = new URLSearchParams({ compound_uri: (await made.text()).trim() });
        } else if (form.enctype !== 'multipart/form-data') {
          var plain = new URLSearchParams();
          fields.forEach(function (v, k) { if (v !== '' && k !== 'smiles') plain.append(k, String(v)); });
          fields = plain;
        }
        await answer(box, await fetch(form.action, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: fields }));
      } catch (e) { show(box, { text: 'Failed', error: String(e) }); }
    });
  });
  var watched = document.querySelector('[data-follow]');
  if (watched) follow(watched, watched.dataset.follow);
})();
`;

/** Where a job's progress shows: status text, a progress bar, and the result link(s). */
export function jobBox(id: string, hidden = true): Html {
  return html`<div id="${id}" class="job" role="status" aria-live="polite"${raw(hidden ? ' hidden' : '')}>
<p>Task: <a class="task-link"></a></p><p><progress max="100" value="0"></progress> <span class="status"></span></p><p class="result"></p></div>`;
}

export const script = (): Html => html`<script>${raw(PAGE_SCRIPT)}</script>`;
