// Depictions of stored compounds as inline SVG drawn by RDKit (src/chem), so a table of
// structures needs no further request and no image from another host.
import type { Deps } from '../deps.ts';
import { storedSmiles } from '../compounds/compoundQuads.ts';
import { depictSvg } from '../chem/depict.ts';
import { html, raw, type Html } from './html.ts';


/**
 * RDKit writes its colours and strokes as style attributes, which the pages' policy refuses
 * (pagePolicy.ts: no inline style that is not hashed); each declaration becomes the SVG
 * presentation attribute of the same name (SVG 2 §6.6), which no policy governs.
 */
export const presentationAttributes = (svg: string): string =>
  svg.replace(/\sstyle='([^']*)'/g, (_m, decls: string) =>
    decls.split(';').map((d) => /^\s*([a-z-]+)\s*:\s*([^"<>]*?)\s*$/.exec(d)).filter((m) => m !== null).map((m) => ` ${m[1]}="${m[2]}"`).join(''));

/** RDKit's SVG with its XML declaration dropped (it is inlined in HTML) and a label for readers. */
export function svgOf(structure: string, size: number, label: string): Html {
  try {
    const svg = presentationAttributes(depictSvg(structure, size, size).replace(/^<\?xml[^>]*\?>\s*/, ''));
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
