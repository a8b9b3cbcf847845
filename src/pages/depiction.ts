// Depictions of stored compounds as inline SVG drawn by RDKit (src/chem), so a table of
// structures needs no further request and no image from another host.
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { SCHEMA, SVC } from '../rdf/vocab.ts';
import { depictSvg } from '../chem/depict.ts';
import { html, raw, type Html } from './html.ts';

const { namedNode } = DataFactory;

const stored = async (deps: Deps, compound: string, p: typeof SVC.smiles): Promise<string | undefined> =>
  (await deps.store.match(namedNode(compound), p, null, compound))[0]?.object.value;

/** schema:smiles, or svc:smiles in data written before it (as datasetChemOutput.ts reads it). */
export const storedSmiles = async (deps: Deps, compound: string): Promise<string | undefined> =>
  (await stored(deps, compound, SCHEMA.smiles)) ?? (await stored(deps, compound, SVC.smiles));

/** RDKit's SVG with its XML declaration dropped (it is inlined in HTML) and a label for readers. */
export function svgOf(structure: string, size: number, label: string): Html {
  try {
    const svg = depictSvg(structure, size, size).replace(/^<\?xml[^>]*\?>\s*/, '');
    return html`<span class="depiction" role="img" aria-label="${label}">${raw(svg)}</span>`;
  } catch {
    return html`<span class="depiction">(no depiction)</span>`;
  }
}

export async function compoundDepiction(deps: Deps, compound: string, size = 120): Promise<Html> {
  const smiles = await storedSmiles(deps, compound);
  return smiles ? svgOf(smiles, size, `structure ${smiles}`) : html`<span>(structure held by another service)</span>`;
}

/** compoundDepiction of each of `compounds`, in order. */
export async function compoundDepictions(deps: Deps, compounds: readonly string[], size = 120): Promise<Html[]> {
  const out: Html[] = [];
  for (const c of compounds) out.push(await compoundDepiction(deps, c, size));
  return out;
}
