// One algorithm per RDKit descriptor that has a Blue Obelisk entry, so that
// GET /algorithm?sameas=<Blue Obelisk URI> finds it (SPEC §4.1).
import { ATYPE, BO_NS } from '../../rdf/vocab.ts';
import { computeDescriptors, DESCRIPTORS } from '../../chem/descriptors.ts';
import type { AlgorithmDef } from '../types.ts';

export const singleDescriptors: AlgorithmDef[] = DESCRIPTORS.filter((d) => d.blueObelisk).map((d) => ({
  id: `rdkit-${d.name.toLowerCase()}`,
  title: `${d.title} (RDKit)`,
  description: `${d.title}${d.units ? ` in ${d.units}` : ''}, computed by RDKit; the Blue Obelisk descriptor ontology entry is its owl:sameAs.`,
  types: [ATYPE.DescriptorCalculation, ATYPE.PhysicoChemical],
  sameAs: [BO_NS + d.blueObelisk],
  supervised: false,
  needsStructures: true,
  perRow: true,
  params: [],
  run: async ({ table }) => ({
    kind: 'features',
    columns: [{ uri: '', title: d.title, numeric: true, units: d.units, sameAs: BO_NS + d.blueObelisk }],
    values: await computeDescriptors(table.smiles, [d]),
  }),
}));
