// Physico-chemical descriptors by RDKit, each switched on or off by a
// boolean parameter of its own name; all on by default.
import { ATYPE, BO_NS } from '../../rdf/vocab.ts';
import { computeDescriptors, DESCRIPTORS } from '../../chem/descriptors.ts';
import { BadRequest } from '../../errors.ts';
import { ERR } from '../../rdf/vocab.ts';
import type { AlgorithmDef } from '../types.ts';

export const physchem: AlgorithmDef = {
  id: 'physchem',
  title: 'Physico-chemical descriptors (RDKit)',
  description: 'Molecular weight, exact mass, Crippen logP and molar refractivity, TPSA, H-bond donors and acceptors, rotatable bonds, ring and aromatic ring counts, heavy atoms, fraction sp3, formal charge, stereo centres and shape indices, computed by RDKit. Each descriptor is switched by a boolean parameter of its name.',
  types: [ATYPE.DescriptorCalculation, ATYPE.PhysicoChemical, ATYPE.Topological, ATYPE.Constitutional],
  supervised: false,
  needsStructures: true,
  perRow: true,
  params: DESCRIPTORS.map((d) => ({ name: d.name, type: 'boolean' as const, default: true, description: `Calculate ${d.title}` })),
  run: async ({ table, params }) => {
    const selected = DESCRIPTORS.filter((d) => params[d.name] === true);
    if (selected.length === 0) throw new BadRequest('every descriptor is switched off: set at least one descriptor parameter to true', { code: ERR.InvalidParameter });
    const values = await computeDescriptors(table.smiles, selected);
    return {
      kind: 'features',
      columns: selected.map((d) => ({ uri: '', title: d.title, numeric: true, units: d.units, sameAs: d.blueObelisk ? BO_NS + d.blueObelisk : undefined })),
      values,
    };
  },
};
