// Worker-thread entry of 3D generation (run through TaskEngine.runInWorker): loads the
// toolkits once per thread, then generates.
import { initChem } from './index.ts';
import { generateConformers, type ConformerRequest, type GeneratedConformer } from './conformers.ts';

/** This module, for runInWorker(CONFORMER_WORKER, 'generate', request). */
export const CONFORMER_WORKER = new URL(import.meta.url);

export async function generate(req: ConformerRequest): Promise<GeneratedConformer[]> {
  await initChem();
  return generateConformers(req);
}
