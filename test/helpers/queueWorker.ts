// A process that takes jobs from a Redis queue and never finishes them: the job a test
// kills with SIGKILL mid-run. argv: Redis URL, prefix. Prints "RUNNING <task>" per job.
import { RedisQueue } from '../../src/tasks/redis/redisQueue.ts';

const [url, prefix] = process.argv.slice(2) as [string, string];
const queue = new RedisQueue({ url, prefix, lockDurationMs: 1000, stalledIntervalMs: 500 });
queue.consume(async ({ job }) => {
  console.log(`RUNNING ${job.taskUri}`);
  await new Promise(() => {});
}, 1);
