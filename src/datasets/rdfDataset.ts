// RDF dataset uploads: the OpenTox dataEntry structure as other services
// emit it (ot:Dataset → ot:dataEntry → ot:compound, ot:values → ot:feature, ot:value),
// with the feature definitions, in any RDF syntax.
import type * as RDF from '@rdfjs/types';
import { BadRequest } from '../errors.ts';
import { DC, ERR, OT, RDF as RDFNS, XSD } from '../rdf/vocab.ts';
import { featureOfQuads } from '../features/featureModel.ts';
import { inferType, type Column, type InputRow, type InputTable } from './table.ts';

const key = (t: RDF.Term): string => `${t.termType}|${t.value}`;
const NUMERIC_TYPES = new Set(['double', 'float', 'decimal', 'integer', 'int', 'long', 'short', 'nonNegativeInteger'].map((l) => XSD.ns + l));

/** A compound URI of the form …/compound/InChI=… names its structure (lazar services). */
function inchiOf(uri: string): string | undefined {
  const m = /\/compound\/(InChI=[^?#]+)$/.exec(uri);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
}

/** With keepUris, compound URIs stay URIs (reading a remote dataset rather than importing it). */
export function readRdfDataset(quads: readonly RDF.Quad[], options: { keepUris?: boolean } = {}): InputTable {
  const bySubject = new Map<string, RDF.Quad[]>();
  for (const q of quads) {
    const k = key(q.subject);
    const list = bySubject.get(k);
    if (list) list.push(q);
    else bySubject.set(k, [q]);
  }
  const objects = (s: RDF.Term, p: RDF.NamedNode) => (bySubject.get(key(s)) ?? []).filter((q) => q.predicate.equals(p)).map((q) => q.object);
  const datasets = quads.filter((q) => (q.predicate.equals(RDFNS.type) && q.object.equals(OT.Dataset)) || q.predicate.equals(OT.dataEntry)).map((q) => q.subject);
  if (datasets.length === 0) {
    throw new BadRequest('the RDF holds no ot:Dataset and no ot:dataEntry', { code: ERR.NotADatasetRepresentation });
  }
  const dataset = datasets[0]!; // datasets is not empty (checked above)
  const table: InputTable = { columns: [], rows: [], warnings: [], title: objects(dataset, DC.title)[0]?.value };
  const columnOf = new Map<string, number>();
  const datatypes: Array<Set<string>> = [];
  const columnFor = (feature: RDF.Term): number => {
    const k = key(feature);
    let i = columnOf.get(k);
    if (i === undefined) {
      const spec = featureOfQuads(quads, feature);
      const col: Column = { title: spec.title, type: spec.type, spec: { ...spec, sameAs: spec.sameAs ?? (feature.termType === 'NamedNode' ? feature.value : undefined) } };
      if (feature.termType === 'NamedNode') col.featureUri = feature.value;
      i = table.columns.push(col) - 1;
      columnOf.set(k, i);
      datatypes.push(new Set());
    }
    return i;
  };
  const entries = [...new Map(datasets.flatMap((d) => objects(d, OT.dataEntry)).map((e) => [key(e), e])).values()];
  entries.forEach((entry, n) => {
    const rowNo = n + 1;
    const compound = objects(entry, OT.compound)[0];
    if (!compound || compound.termType !== 'NamedNode') {
      table.warnings.push({ row: rowNo, message: `data entry ${rowNo} has no ot:compound URI; skipped` });
      return;
    }
    const row: InputRow = { row: rowNo, values: [] };
    const inchi = options.keepUris ? undefined : inchiOf(compound.value);
    if (inchi) row.structure = { text: inchi, format: 'inchi' };
    else row.compoundUri = compound.value;
    for (const fv of objects(entry, OT.values)) {
      const feature = objects(fv, OT.feature)[0];
      const value = objects(fv, OT.value)[0];
      if (!feature || !value || value.termType !== 'Literal') continue;
      const i = columnFor(feature);
      if (row.values[i] === undefined) row.values[i] = value.value;
      datatypes[i]!.add(value.datatype.value); // one datatype set per column
    }
    table.rows.push(row);
  });
  for (const row of table.rows) for (let i = 0; i < table.columns.length; i++) row.values[i] ??= undefined;
  table.columns.forEach((c, i) => {
    if (c.type) return;
    const types = [...datatypes[i]!];
    c.type = types.length > 0 && types.every((t) => NUMERIC_TYPES.has(t)) ? 'numeric' : inferType(table.rows.map((r) => r.values[i]));
  });
  return table;
}
