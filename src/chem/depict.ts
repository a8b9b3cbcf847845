// Depiction: RDKit draws SVG with atom labels as paths, so resvg, which has
// no system fonts in WASM, renders the PNG without needing a font file.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { rdkitMol, withMol } from './toolkits.ts';

export const DEFAULT_SIZE = 300;
export const MAX_SIZE = 2000;

let resvgReady: Promise<void> | undefined;

function loadResvg(): Promise<void> {
  resvgReady ??= initWasm(readFileSync(createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm')));
  return resvgReady;
}

/** Checks a w or h parameter (default 300). */
export function imageSize(raw: unknown, name: 'w' | 'h'): number {
  if (raw === undefined || raw === '') return DEFAULT_SIZE;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 16 || n > MAX_SIZE) {
    throw new BadRequest(`parameter ${name}=${String(raw)} is out of range: expected an integer from 16 to ${MAX_SIZE}`, { code: ERR.InvalidParameter });
  }
  return n;
}

/**
 * SVG of a structure given as molfile or SMILES. 3D coordinates (conformers) are replaced
 * by a fresh 2D layout without hydrogens, which is what a reader expects to see.
 */
export function depictSvg(structure: string, width = DEFAULT_SIZE, height = DEFAULT_SIZE): string {
  const isMolfile = structure.includes('\n');
  const { mol, log } = rdkitMol(structure, isMolfile ? { removeHs: false } : undefined);
  if (!mol) throw new Error(`cannot depict a stored structure: ${log}`);
  return withMol(mol, (m) => {
    if (m.has_coords() === 3) {
      m.remove_hs_in_place('{}');
      m.set_new_coords();
    }
    return m.get_svg(width, height);
  });
}

/** PNG of an SVG drawing, rendered at its own size. */
export async function svgToPng(svg: string): Promise<Buffer> {
  await loadResvg();
  const resvg = new Resvg(svg, { background: 'white', font: { loadSystemFonts: false } });
  try {
    const image = resvg.render();
    try {
      return Buffer.from(image.asPng());
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}

export async function depictPng(structure: string, width = DEFAULT_SIZE, height = DEFAULT_SIZE): Promise<Buffer> {
  return svgToPng(depictSvg(structure, width, height));
}
