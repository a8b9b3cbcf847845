// openchemlib's property set: cLogP, cLogS, polar surface area, drug-likeness.
import { ATYPE, ERR } from '../../rdf/vocab.ts';
import { computeOclProperties, OCL_PROPERTIES } from '../../chem/oclProperties.ts';
import { BadRequest } from '../../errors.ts';
import type { AlgorithmDef } from '../types.ts';

export const oclProperties: AlgorithmDef = {
  id: 'ocl-properties',
  title: 'openchemlib molecular properties',
  description: "openchemlib's property set: cLogP and cLogS by atom-type increments, polar surface area, H-bond donors and acceptors, rotatable bonds and stereo centres, and on request (it is slow) fragment-based drug-likeness. Each is switched by a boolean parameter of its name.",
  types: [ATYPE.DescriptorCalculation, ATYPE.PhysicoChemical],
  supervised: false,
  needsStructures: true,
  perRow: true,
  params: OCL_PROPERTIES.map((p) => ({ name: p.name, type: 'boolean' as const, default: p.default, description: `Calculate ${p.title}${p.cost ? ` (${p.cost})` : ''}` })),
  run: async ({ table, params }) => {
    const selected = OCL_PROPERTIES.filter((p) => params[p.name] === true);
    if (selected.length === 0) throw new BadRequest('every property is switched off: set at least one property parameter to true', { code: ERR.InvalidParameter });
    return {
      kind: 'features',
      columns: selected.map((p) => ({ uri: '', title: p.title, numeric: true, units: p.units })),
      values: computeOclProperties(table.smiles, selected),
    };
  },
};
