// Checks of a 3D embedding against the 2D structure it was made from. Stereo the 2D
// structure specifies must survive; stereo it leaves open may come out either way (a 3D
// structure cannot leave it open). InChI's stereo layers say both: /t lists tetrahedral
// centres ('?' when unknown) and /m0 or /m1 whether the structure is the listed one or its
// mirror image; /b lists double bonds (InChI Technical Manual, section "stereo layer").

/** The main-layer stereo of an InChI: element -> sign, '?' and 'u' left out. */
interface Stereo { rest: string; centres: Map<string, string>; bonds: Map<string, string> }

type Sign = '+' | '-';
const FLIP: Record<Sign, Sign> = { '+': '-', '-': '+' };

/** Element -> '+' or '-' of one comma-separated stereo list. */
function entries(text: string): Map<string, Sign> {
  const out = new Map<string, Sign>();
  for (const e of text.split(',').filter(Boolean)) {
    const sign = e.slice(-1);
    if (sign === '+' || sign === '-') out.set(e.slice(0, -1), sign);
  }
  return out;
}

function stereoOf(inchi: string): Stereo {
  const layers = inchi.split('/');
  const isotopic = layers.findIndex((l) => l.startsWith('i'));
  const main = isotopic < 0 ? layers : layers.slice(0, isotopic);
  const layer = (prefix: string) => main.find((l) => l.startsWith(prefix))?.slice(1) ?? '';
  // Several components: /t lists them separated by ';', /m by '.' (one value for all when alone).
  const inversions = layer('m').split('.');
  const centres = new Map<string, string>();
  layer('t').split(';').forEach((component, k) => {
    const inverted = (inversions[k] ?? inversions[0]) === '1';
    for (const [at, sign] of entries(component)) centres.set(`${k}:${at}`, inverted ? FLIP[sign] : sign);
  });
  const rest = [...main.filter((l) => !/^[btms]/.test(l)), ...(isotopic < 0 ? [] : layers.slice(isotopic).filter((l) => !/^[btms]/.test(l)))].join('/');
  const bonds = new Map<string, string>();
  layer('b').split(';').forEach((component, k) => {
    for (const [at, sign] of entries(component)) bonds.set(`${k}:${at}`, sign);
  });
  return { rest, centres, bonds };
}

/**
 * Why the InChI of a 3D embedding does not denote the 2D structure, or undefined when it
 * does: same constitution, charges and isotopes, and every stereo element the 2D InChI
 * specifies has the same configuration in 3D.
 */
export function embeddingMismatch(inchi2D: string, inchi3D: string): string | undefined {
  if (!inchi2D) return undefined;
  if (!inchi3D) return 'no InChI for the 3D structure';
  const want = stereoOf(inchi2D);
  const got = stereoOf(inchi3D);
  if (want.rest !== got.rest) return `a different structure (${inchi3D})`;
  for (const [kind, w, g] of [['centre', want.centres, got.centres], ['double bond', want.bonds, got.bonds]] as const) {
    for (const [at, sign] of w) if (g.get(at) !== sign) return `stereo ${kind} ${at} changed configuration`;
  }
  return undefined;
}

/** Closest distance in Å below which two atoms are on top of each other (H–H contacts are ≥ 1.5 Å, bonds to H ≥ 0.9 Å). */
export const MIN_ATOM_DISTANCE = 0.6;

/** The closest pair of atoms (1-based numbers) nearer than MIN_ATOM_DISTANCE, if any. */
export function clashOf(atoms: ReadonlyArray<{ x: number; y: number; z: number }>): { a: number; b: number; distance: number } | undefined {
  for (let i = 0; i < atoms.length; i++) {
    for (let j = i + 1; j < atoms.length; j++) {
      const p = atoms[i]!;
      const q = atoms[j]!;
      const d = Math.hypot(p.x - q.x, p.y - q.y, p.z - q.z);
      if (d < MIN_ATOM_DISTANCE) return { a: i + 1, b: j + 1, distance: d };
    }
  }
  return undefined;
}
