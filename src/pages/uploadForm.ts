// Upload from the browser (SPEC §4.4 POST /dataset): a CSV, SDF or RDF file posted as
// multipart, then the task's progress, then the link to the new dataset.
import { html, type Html } from './html.ts';
import { jobBox, script } from './script.ts';
import type { PageInput } from './page.ts';

export function uploadForm(input: PageInput): Html {
  return html`<form class="box" id="upload" method="post" enctype="multipart/form-data" action="${input.base}/dataset" data-job="upload-job">
<h2>Upload a dataset</h2>
<label>File (CSV with a SMILES column, SDF, or RDF): <input type="file" name="file" required accept=".csv,.sdf,.sd,.mol,.rdf,.ttl,.nt,.jsonld,.txt"></label>
<button type="submit">Upload</button></form>${jobBox('upload-job')}${script()}`;
}
