// A prediction's read-across neighbours beside it on the dataset page: each training
// compound's depiction, its similarity and its measured value (models/neighbours.ts).
import type { Deps } from '../deps.ts';
import type { NeighbourValue } from '../models/predictors.ts';
import { compoundDepictions } from './depiction.ts';
import { html, link, type Html } from './html.ts';
import { fmt } from './plots.ts';

const shown = (v: number | string): string => (typeof v === 'number' ? fmt(v) : v);

/** One table cell per row: its neighbours, most similar first. */
export async function neighbourCells(deps: Deps, base: string, rows: ReadonlyArray<readonly NeighbourValue[]>): Promise<Html[]> {
  const out: Html[] = [];
  for (const list of rows) {
    const pictures = await compoundDepictions(deps, list.map((n) => n.compound), 80);
    out.push(html`<td><ol class="neighbours">${list.map((n, i) => html`<li>${pictures[i]}<br>${link(n.compound, base)}<br>similarity ${n.similarity.toFixed(3)}, measured ${shown(n.measured)}</li>`)}</ol></td>`);
  }
  return out;
}
