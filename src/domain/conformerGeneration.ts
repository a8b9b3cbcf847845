// 3D generation (SPEC §4.2 create conformer, issue #3 §3): up to 20 distinct conformers
// made by openchemlib in a worker thread under a time limit, then stored like posted ones.
import type { Deps } from '../deps.ts';
import { BadRequest, GatewayTimeout } from '../http/errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { conformersInWorker } from '../chem/pool.ts';
import { compoundRecord, ownMolfile } from './compoundRecords.ts';
import { addConformers } from './conformers.ts';

export const MAX_GENERATED = 20;
/** Time limit of one generation request. */
export const GENERATION_TIMEOUT_MS = 120_000;

/** Validates the `generate` parameter: an integer from 1 to 20. */
export function generateCount(raw: string | undefined): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_GENERATED) {
    throw new BadRequest(`parameter generate=${raw ?? ''} is out of range: expected an integer from 1 to ${MAX_GENERATED}`, { code: ERR.InvalidParameter });
  }
  return n;
}

/** 3D molfiles of compound `id`, not stored (for xyz of a compound without conformers). */
export async function threeDMolfiles(deps: Deps, id: number, count: number, signal?: AbortSignal): Promise<string[]> {
  const compound = compoundRecord(deps, id);
  const molfile = await ownMolfile(deps, compound);
  let made;
  try {
    made = await conformersInWorker({ molfile, smiles: compound.smiles, inchi: compound.inchi, count }, GENERATION_TIMEOUT_MS, signal);
  } catch (e) {
    if ((e as Error).name === 'TimeoutError' || /abort/i.test((e as Error).message)) {
      throw new GatewayTimeout(`3D generation for ${compound.uri} took longer than ${GENERATION_TIMEOUT_MS / 1000} s`, { cause: e });
    }
    throw new BadRequest(`3D generation failed for ${compound.uri}: ${(e as Error).message}`, { code: ERR.InvalidStructure, cause: e });
  }
  if (!made.length) throw new BadRequest(`no 3D conformer of ${compound.uri} kept its stereo configuration`, { code: ERR.InvalidStructure });
  return made.map((c) => c.molfile);
}

/** Generates and stores up to `count` conformers; returns their URIs. */
export async function generateConformers(deps: Deps, id: number, count: number, signal?: AbortSignal): Promise<string[]> {
  const molfiles = await threeDMolfiles(deps, id, count, signal);
  return addConformers(deps, id, molfiles.map((molfile) => ({ molfile, is3D: true })));
}
