// 3D generation (SPEC §4.2 create conformer): up to 20 distinct conformers
// made by openchemlib in a worker thread under a time limit, run as a task (SPEC §4.3),
// then stored like posted ones.
import type { Deps } from '../deps.ts';
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { CONFORMER_WORKER } from '../chem/conformerWorker.ts';
import type { ConformerRequest, GeneratedConformer } from '../chem/conformers.ts';
import type { TaskInfo } from '../tasks/api.ts';
import type { Caller } from '../auth/caller.ts';
import { compoundRecord, ownMolfile } from './compoundRecords.ts';
import { addConformers } from './conformers.ts';
import { compoundUri } from './compounds.ts';

export const MAX_GENERATED = 20;
/** Time limit of one generation (it can take seconds, on some molecules far more). */
export const GENERATION_TIMEOUT_MS = 300_000;
export const GENERATE_JOB = 'compound-conformers';

/** Validates the `generate` parameter: an integer from 1 to 20. */
export function generateCount(raw: string | undefined): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_GENERATED) {
    throw new BadRequest(`parameter generate=${raw ?? ''} is out of range: expected an integer from 1 to ${MAX_GENERATED}`, { code: ERR.InvalidParameter });
  }
  return n;
}

type RunInWorker = Deps['tasks']['runInWorker'];

/**
 * 3D molfiles of compound `id`, not stored (also serves xyz of a compound without conformers).
 * `run`: a job's runInWorker; `urgent` when a client waits on them in its request.
 */
export async function threeDMolfiles(deps: Deps, id: number, count: number, options: { run?: RunInWorker; signal?: AbortSignal; urgent?: boolean } = {}): Promise<string[]> {
  const { run = deps.tasks.runInWorker.bind(deps.tasks), signal, urgent } = options;
  const compound = compoundRecord(deps, id);
  const req: ConformerRequest = { molfile: await ownMolfile(deps, compound), smiles: compound.smiles, inchi: compound.inchi, count };
  let made: GeneratedConformer[];
  try {
    made = await run<GeneratedConformer[]>(CONFORMER_WORKER, 'generate', req, { timeoutMs: GENERATION_TIMEOUT_MS, signal, urgent });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new BadRequest(`3D generation failed for ${compound.uri}: ${(e as Error).message}`, { code: ERR.InvalidStructure, cause: e });
  }
  if (!made.length) throw new BadRequest(`no 3D conformer of ${compound.uri} kept its specified stereo configuration with all atoms apart`, { code: ERR.InvalidStructure });
  return made.map((c) => c.molfile);
}

interface GenerateParams {
  id: number;
  count: number;
}

/** Registers the job kind (boot, before the engine starts, so queued jobs resume). */
export function defineGenerationJob(deps: Deps): void {
  deps.tasks.define<GenerateParams>({
    kind: GENERATE_JOB,
    idempotent: false,
    run: async (params, ctx) => {
      const molfiles = await threeDMolfiles(deps, params.id, params.count, { run: ctx.runInWorker, signal: ctx.signal });
      return addConformers(deps, params.id, molfiles.map((molfile) => ({ molfile, is3D: true })));
    },
  });
}

/** Starts generation of up to `count` conformers as a task. */
export function submitGeneration(deps: Deps, id: number, count: number, caller: Caller): Promise<TaskInfo> {
  const compound = compoundRecord(deps, id);
  return deps.tasks.submit<GenerateParams>(GENERATE_JOB, { id, count }, {
    title: `Generate ${count} 3D conformer(s) of ${compound.uri}`,
    creator: `${compoundUri(deps, id)}/conformer`,
    owner: caller.owner,
    client: caller.client,
  });
}
