// Depictions of stored compounds as inline SVG drawn by RDKit (src/chem), so a table of
// structures needs no further request and no image from another host.
import type { Deps } from '../deps.ts';
import { storedSmiles } from '../compounds/compoundQuads.ts';
import { depictSvg } from '../chem/depict.ts';
import { html, raw, type Html } from './html.ts';


/** RDKit's SVG with its XML declaration dropped (it is inlined in HTML) and a label for readers. */
export function svgOf(structure: string, size: number, label: string): Html {
  try {
    const svg = depictSvg(structure, size, size).replace(/^<\?xml[^>]*\?>\s*/, '');
    return html`<span class="depiction" role="img" aria-label="${label}">${raw(svg)}</span>`;
  } catch {
    return html`<span class="depiction">(no depiction)</span>`;
  }
}

export function compoundDepiction(deps: Deps, compound: string, size = 120): Html {
  const smiles = storedSmiles(deps, compound);
  return smiles ? svgOf(smiles, size, `structure ${smiles}`) : html`<span>(structure held by another service)</span>`;
}
