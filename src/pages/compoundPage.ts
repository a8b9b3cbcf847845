// A compound (SPEC §4.2) for a person: its depiction, identifiers, every chemical format,
// its conformers, the datasets that hold it, and similar compounds.
import { DataFactory } from 'n3';
import { OT } from '../rdf/vocab.ts';
import { MEDIA } from '../chem/index.ts';
import { compoundRecord, conformerRecords, numberOf } from '../compounds/compoundRecords.ts';
import { variantText } from './graph.ts';
import { html, link, raw } from './html.ts';
import { formatLinks, layout } from './layout.ts';
import { compoundDepictions, presentationAttributes } from './depiction.ts';
import type { PageInput } from './page.ts';

const { namedNode } = DataFactory;
const SIMILAR = 0.5;
const SIMILAR_SHOWN = 6;

export async function compoundPage(input: PageInput): Promise<string> {
  const { deps, uri, base } = input;
  const compound = compoundRecord(deps, numberOf(input.params.id!, 'compound')); // the route pattern has ?<id> (pages.ts)
  const svg = (await variantText(input.reply, MEDIA.svg)) ?? '';
  const conformers = await conformerRecords(deps, compound);
  // A dataset is the named graph of its entries (DESIGN: one graph per dataset).
  const datasets = [...new Set((await deps.store.match(null, OT.compound, namedNode(uri), null)).map((q) => q.graph.value))].filter((g) => g.startsWith(base + '/dataset/'));
  const similar = (await deps.search.similar(compound.smiles, SIMILAR, { limit: SIMILAR_SHOWN + 1 })).filter((h) => h.uri !== uri).slice(0, SIMILAR_SHOWN);
  const pictures = await compoundDepictions(deps, similar.map((h) => h.uri), 100);
  const body = html`<div class="compound"><span class="depiction" role="img" aria-label="structure ${compound.smiles}">${raw(presentationAttributes(svg.replace(/^<\?xml[^>]*\?>\s*/, '')))}</span>
<dl class="identifiers"><dt>SMILES</dt><dd class="smiles">${compound.smiles}</dd><dt>InChI</dt><dd>${compound.inchi}</dd><dt>InChIKey</dt><dd>${compound.inchiKey}</dd>
<dt>Formula</dt><dd>${compound.formula}</dd><dt>Molecular weight</dt><dd>${compound.molecularWeight.toFixed(3)} g/mol</dd></dl></div>
<h2>Conformers</h2>${conformers.length ? html`<ul>${conformers.map((c) => html`<li>${link(c.uri, base)}</li>`)}</ul>` : html`<p>None stored. <a href="${uri}/conformer">Conformer list</a></p>`}
<h2>Datasets holding it</h2>${datasets.length ? html`<ul class="datasets">${datasets.map((d) => html`<li>${link(d, base)}</li>`)}</ul>` : html`<p>None.</p>`}
<h2>Similar compounds (Tanimoto ≥ ${SIMILAR})</h2>${similar.length ? html`<ul class="similar">${similar.map((h, i) => html`<li>${pictures[i]} ${link(h.uri, base)} ${h.similarity?.toFixed(2)}</li>`)}</ul>` : html`<p>None.</p>`}`;
  return layout({ title: `Compound ${compound.id} · ${compound.formula}`, base, body, formats: formatLinks(uri, input.reply.variants.map((v) => v.type)) });
}
