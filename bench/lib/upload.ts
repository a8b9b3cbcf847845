// A dataset upload as a client makes it: POST, then follow the task to the dataset URI.
import { uploadDataset } from '../../test/helpers/datasets.ts';

/**
 * How often the task is polled. A finished upload is seen at the next poll: at 100 ms (the
 * tests' pace) that added 50 ms on average, and up to a tenth of a second, to an upload of
 * 1.5 s. A hundred polls a second cost the service a few milliseconds of CPU a second.
 */
const POLL_MS = 10;

/** The dataset URI of `body` uploaded to the service at `url`, once its task has finished. */
export async function upload(url: string, body: string, type: string): Promise<string> {
  const done = await uploadDataset({ url }, body, type, undefined, undefined, POLL_MS);
  if (done.status !== 200) throw new Error(`upload failed: ${done.status} ${done.body}`);
  return done.body;
}
