// Every job kind the service defines, registered in one place: API processes and worker
// processes (src/worker.ts) both call this at start-up, before the engine starts, so a job
// submitted by one runs in the other and a Queued task recovered at start finds its kind.
import type { Deps } from './deps.ts';
import { defineApplyJob } from './algorithms/startApply.ts';
import { defineUploadJob } from './datasets/datasetUploadJob.ts';
import { definePredictJob } from './models/modelPredict.ts';
import { defineValidationJob } from './validation/validationJob.ts';
import { defineGenerationJob } from './compounds/conformerGeneration.ts';

export function defineJobs(deps: Deps): void {
  defineUploadJob(deps);
  definePredictJob(deps.tasks, deps);
  defineApplyJob(deps);
  defineValidationJob(deps, deps.io);
  defineGenerationJob(deps);
}
