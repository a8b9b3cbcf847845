// A dataset upload as a client makes it: POST, then follow the task to the dataset URI.
import { uploadDataset } from '../../test/helpers/datasets.ts';

/** The dataset URI of `body` uploaded to the service at `url`, once its task has finished. */
export async function upload(url: string, body: string, type: string): Promise<string> {
  const done = await uploadDataset({ url }, body, type);
  if (done.status !== 200) throw new Error(`upload failed: ${done.status} ${done.body}`);
  return done.body;
}
