// Worker-thread entry of 3D generation (piscina): loads the toolkits once per thread.
import { initChem } from './index.ts';
import { generateConformers, type ConformerRequest, type GeneratedConformer } from './conformers.ts';

export default async function run(req: ConformerRequest): Promise<GeneratedConformer[]> {
  await initChem();
  return generateConformers(req);
}
