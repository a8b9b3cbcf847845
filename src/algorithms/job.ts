// The task that applies an algorithm (SPEC §4.3: anything that can take long answers 202
// with a task). Its parameters are plain JSON, so a Queued run survives a restart.
import { workerThreads } from '../config.ts';
import type { Deps } from '../deps.ts';
import { NotFound } from '../errors.ts';
import type { JobContext } from '../tasks/api.ts';
import { applyAlgorithm, type ApplyParams } from './apply.ts';
import { algorithmById } from './catalogue.ts';
import type { AlgorithmIO } from './io.ts';
import { workerRunner } from './parallel.ts';

export const APPLY_JOB = 'algorithm-apply';

export interface ApplyJobParams extends ApplyParams {
  id: string;
}

export function defineApplyJob(deps: Deps, io: AlgorithmIO): void {
  const workers = workerThreads(deps.config);
  deps.tasks.define<ApplyJobParams>({
    kind: APPLY_JOB,
    idempotent: false,
    run: async (params, ctx: JobContext) => {
      const def = algorithmById(params.id);
      if (!def) throw new NotFound(`no algorithm ${params.id}`);
      return applyAlgorithm(io, def, params, {
        signal: ctx.signal,
        progress: ctx.progress,
        subjectid: ctx.subjectid,
        runner: workerRunner(ctx.runInWorker, workers),
      });
    },
  });
}
