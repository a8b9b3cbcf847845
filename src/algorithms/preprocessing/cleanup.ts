// Data cleanup: structure standardisation, removal of duplicate structures and
// of rows with missing values. Each answers a new dataset; the input is left as it was.
import { ATYPE } from '../../rdf/vocab.ts';
import { standardise } from '../../chem/standardise.ts';
import { selectRows } from '../table.ts';
import type { AlgorithmDef } from '../types.ts';

export const standardisation: AlgorithmDef = {
  id: 'standardise',
  title: 'Structure standardisation',
  description: 'Replaces every structure by its standardised form: the largest fragment (counter-ions and solvents removed) and charges neutralised where a proton can be added or removed. Rows whose structure does not parse are dropped.',
  types: [ATYPE.DataCleanup, ATYPE.Preprocessing],
  supervised: false,
  needsStructures: true,
  params: [
    { name: 'largest_fragment', type: 'boolean', default: true, description: 'Keep only the largest fragment' },
    { name: 'neutralise', type: 'boolean', default: true, description: 'Neutralise charges (not those balanced by a neighbour, nor quaternary nitrogen)' },
  ],
  run: async ({ table, params }) => {
    const options = { largestFragment: params.largest_fragment as boolean, neutralise: params.neutralise as boolean };
    const smiles = table.smiles.map((s) => standardise(s, options));
    const keep = smiles.flatMap((s, i) => (s ? [i] : []));
    const out = selectRows(table, keep);
    // New structures are new compounds: the applier creates them from the SMILES.
    return { kind: 'table', table: { ...out, smiles: keep.map((i) => smiles[i]!), compounds: keep.map(() => '') } };
  },
};

export const removeDuplicates: AlgorithmDef = {
  id: 'remove-duplicates',
  title: 'Remove duplicate structures',
  description: 'Keeps the first row of every structure (compared by canonical SMILES, after standardisation when standardise=true) and drops the rest.',
  types: [ATYPE.DataCleanup, ATYPE.Preprocessing],
  supervised: false,
  needsStructures: true,
  params: [{ name: 'standardise', type: 'boolean', default: false, description: 'Compare standardised structures (largest fragment, neutralised)' }],
  run: async ({ table, params }) => {
    const on = params.standardise as boolean;
    const seen = new Set<string>();
    const keep: number[] = [];
    table.smiles.forEach((s, i) => {
      const key = standardise(s, { largestFragment: on, neutralise: on }) ?? `unparsed:${table.compounds[i]}`;
      if (seen.has(key)) return;
      seen.add(key);
      keep.push(i);
    });
    return { kind: 'table', table: selectRows(table, keep) };
  },
};

export const removeMissing: AlgorithmDef = {
  id: 'remove-missing',
  title: 'Remove rows with missing values',
  description: 'Drops every compound that lacks a value for any feature of the dataset (or of feature_uris[] when given), or that has no structure when require_structure=true.',
  types: [ATYPE.DataCleanup, ATYPE.Preprocessing],
  supervised: false,
  params: [{ name: 'require_structure', type: 'boolean', default: true, description: 'Also drop compounds without a structure' }],
  run: async ({ table, params }) => {
    const keep = table.values.flatMap((row, i) => {
      const complete = row.every((v) => v !== null && v !== '' && !(typeof v === 'number' && Number.isNaN(v)));
      return complete && (!params.require_structure || table.smiles[i]) ? [i] : [];
    });
    return { kind: 'table', table: selectRows(table, keep) };
  },
};
