// Dative bonds as charge-separated single bonds. RDKit reads a ligand bonded to a metal
// beyond its valence (the N of cisplatin's Cl[Pt](Cl)([NH3])[NH3]) as a dative bond and
// writes it "->", which Open Babel and RDKit before 2024 cannot read, and for which it
// makes no InChI. The classical form, donor +1 and acceptor -1 on a single bond, says the
// same: InChI disconnects metal bonds and moves the charges back, so the InChIKey is the
// one PubChem gives (cisplatin LXZZYRPGZAFOLE-UHFFFAOYSA-L).
import type { Mol } from '@rdkit/rdkit';
import { rdkit } from './toolkits.ts';

/** Bond order of a dative bond in RDKit's JSON (RDKit's BondType DATIVE). */
const DATIVE = 17;

interface JsonAtom { chg?: number }
interface JsonBond { bo?: number; atoms: [number, number] }
interface JsonDoc { molecules: Array<{ atoms: JsonAtom[]; bonds?: JsonBond[] }> }

/**
 * The molecule with every dative bond replaced by a single bond between a donor one charge
 * up and an acceptor one charge down; `mol` itself (not copied) when it has none. The
 * caller frees both.
 */
export function withoutDativeBonds(mol: Mol, keepHs: boolean, json: string = mol.get_json()): Mol {
  if (!json.includes(`"bo":${DATIVE}`)) return mol;
  const doc = JSON.parse(json) as JsonDoc;
  for (const m of doc.molecules) {
    for (const b of m.bonds ?? []) {
      if (b.bo !== DATIVE) continue;
      const [donor, acceptor] = b.atoms;
      delete b.bo;
      // RDKit's own JSON: a bond's atom indices are in range.
      const d = m.atoms[donor]!;
      const a = m.atoms[acceptor]!;
      d.chg = (d.chg ?? 0) + 1;
      a.chg = (a.chg ?? 0) - 1;
    }
  }
  const out = rdkit().get_mol(JSON.stringify(doc), JSON.stringify({ removeHs: !keepHs }));
  if (!out || !out.is_valid()) {
    out?.delete();
    return mol;
  }
  return out;
}
