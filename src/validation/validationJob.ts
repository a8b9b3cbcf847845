// The task behind POST /validation/* (SPEC §4.3: anything that can take long answers a
// task): its parameters are plain JSON, so a Queued validation survives a restart; the
// result is the new /validation/{id}.
import type { Deps } from '../deps.ts';
import type { AlgorithmIO } from '../algorithms/io.ts';
import type { JobContext } from '../tasks/api.ts';
import { runLearningValidation, type LearningValidationParams } from './learningValidation.ts';
import { runTestSetValidation, type TestSetParams } from './testSetValidation.ts';
import { createValidation } from './validations.ts';

export const VALIDATION_JOB = 'validation';

export type ValidationJobParams = LearningValidationParams | (TestSetParams & { type: 'test_set_validation' });

export function defineValidationJob(deps: Deps, io: AlgorithmIO): void {
  deps.tasks.define<ValidationJobParams>({
    kind: VALIDATION_JOB,
    idempotent: false,
    run: async (params, ctx: JobContext) => {
      const result = params.type === 'test_set_validation'
        ? await runTestSetValidation(deps, io, params, ctx)
        : await runLearningValidation(io, params, ctx);
      ctx.signal.throwIfAborted();
      return createValidation(deps, result);
    },
  });
}
