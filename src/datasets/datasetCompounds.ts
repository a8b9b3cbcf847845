// The compound of each upload row: structures are parsed in worker threads
// and stored as compounds in bulk; compound URIs of this service must exist; URIs of
// other services are kept as they are (linked data: they are not fetched on upload).
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import type { InputRow } from './table.ts';
import { OT, RDF as RDFNS } from '../rdf/vocab.ts';
import { isValidIri } from '../store/binder.ts';
import { withoutCredentials } from '../http/outbound/credentials.ts';
import { entryAt } from '../algorithms/table.ts';
import { structuresToCompounds } from './datasetStructures.ts';

const { namedNode } = DataFactory;

export type RowCompound = string | { error: string };

async function localCompoundExists(deps: Deps, uri: string): Promise<boolean> {
  const compound = uri.replace(/\/conformer\/[^/]+$/, '');
  return (await deps.store.match(namedNode(compound), RDFNS.type, OT.Compound, null)).length > 0 || (await deps.store.hasGraph(compound));
}

/**
 * The compound of each row. `resolved`, when given, is called (and awaited) each time more
 * rows have their compound, with the count of leading rows that all have one: an upload
 * writes those rows' entries while the structures after them are parsed.
 */
export async function resolveCompounds(deps: Deps, rows: readonly InputRow[], signal?: AbortSignal, progress?: (percent: number) => void, resolved?: (upTo: number, compounds: readonly RowCompound[]) => Promise<void>): Promise<RowCompound[]> {
  const local = uriOf(deps.config, '/compound/');
  const out: RowCompound[] = new Array(rows.length);
  const structured: number[] = [];
  for (const [i, row] of rows.entries()) {
    // A row naming both (the service's own CSV and SD files): the compound it names, while
    // it exists here; otherwise its structure makes (or finds) one.
    const uri = row.compoundUri;
    if (row.structure && uri && isValidIri(uri) && uri.startsWith(local) && (await localCompoundExists(deps, uri))) {
      out[i] = uri;
      continue;
    }
    if (row.structure) {
      structured.push(i);
      continue;
    }
    if (!uri || !isValidIri(uri)) out[i] = { error: `not a compound URI: ${JSON.stringify((uri ?? '').slice(0, 100))}` };
    else if (uri.startsWith(local) && !(await localCompoundExists(deps, uri))) out[i] = { error: `compound ${uri} not found` };
    // A token or user-info the uploader wrote into a compound URI is not stored, nor later sent.
    else out[i] = withoutCredentials(uri);
  }
  if (structured.length > 0) {
    let done = 0;
    // Copies the answers of the structures stored since the last call into their rows.
    const take = (answers: readonly RowCompound[]) => {
      for (; done < answers.length; done++) out[entryAt(structured, done, 'structured row')] = entryAt(answers, done, 'resolved structure');
    };
    const answers = await structuresToCompounds(deps, structured.map((i) => rows[i]!.structure!), {
      signal,
      progress,
      stored: resolved && (async (so) => {
        take(so);
        // Every row before the first structure still unanswered has its compound.
        await resolved(done < structured.length ? structured[done]! : rows.length, out);
      }),
    });
    take(answers);
  } else {
    await resolved?.(rows.length, out);
  }
  return out;
}
