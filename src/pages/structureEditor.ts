// A structure editor beside a SMILES field (search and predict pages): openchemlib's
// CanvasEditor, served by the service itself as two module scripts under /static/ (no CDN),
// which the pages' policy allows by their path (pagePolicy.ts). Drawing fills the field;
// a SMILES typed into the field is drawn. No inline script, no eval: the editor is plain
// JavaScript that draws on canvases and styles through CSSOM and a constructed stylesheet.
import { html, type Html } from './html.ts';

/** Where the editor's scripts are served (staticAssets.ts); the policy allows this path only. */
export const STATIC_PATH = '/static/';

/**
 * The editor's own script (an ES module importing openchemlib from beside it). Each
 * `[data-editor-for]` element gets an editor bound to the input it names; the editors are
 * kept in `window.opentoxEditors` by input id, with openchemlib's Molecule, for scripts
 * and tests that set a structure through the editor's API.
 */
export const EDITOR_SCRIPT = String.raw`import { CanvasEditor, Molecule } from './openchemlib.js';

const editors = (window.opentoxEditors = window.opentoxEditors || {});
for (const box of document.querySelectorAll('[data-editor-for]')) {
  const input = document.getElementById(box.dataset.editorFor);
  if (!input) continue;
  box.hidden = false;
  const editor = new CanvasEditor(box.querySelector('.canvas'));
  let writing = false;
  const fill = () => {
    const molecule = editor.getMolecule();
    if (molecule.getAllAtoms() === 0) return;
    writing = true;
    input.value = molecule.toIsomericSmiles();
    input.dispatchEvent(new Event('input', { bubbles: true }));
    writing = false;
  };
  editor.setOnChangeListener(fill);
  const draw = () => {
    if (writing || !input.value.trim()) return;
    try {
      editor.setMolecule(Molecule.fromSmiles(input.value.trim()));
    } catch {
      // Not SMILES (a name, a CAS number, SMARTS): the field keeps it, the drawing stays.
    }
  };
  input.addEventListener('change', draw);
  box.querySelector('.clear').addEventListener('click', () => { editor.clearAll(); input.value = ''; });
  draw();
  editors[input.id] = { editor, Molecule, fill };
}
`;

/** The editor for input `inputId`: hidden until its script runs (a page works without it). */
export function structureEditor(inputId: string, base: string): Html {
  return html`<div class="structure-editor" data-editor-for="${inputId}" hidden>
<div class="canvas" role="application" aria-label="structure editor: drawing fills the SMILES field"></div>
<button type="button" class="clear">Clear drawing</button></div>
<script type="module" src="${base}${STATIC_PATH}structure-editor.js"></script>`;
}
