// Entry of the substructure worker thread. Node 20 does not run `--import tsx` in worker
// threads, so the TypeScript loader is registered here before the worker module loads.
import { register } from 'tsx/esm/api';

register();
await import('./matchWorker.ts');
