// `opentox`: a command-line client of OpenTox 1.2 services (SPEC §4): upload, apply, predict,
// validate, get, tasks, wait, login. Result URIs go to stdout, progress and errors to stderr.
import { createInterface } from 'node:readline/promises';
import { Command, Option } from 'commander';
import { ServiceError } from './report.ts';
import { sessionOf } from './session.ts';
import { forceProgress } from './progress.ts';
import { FORMATS, get, login, params, post, tasks, upload, wait } from './commands.ts';
import { resolveResource } from './resolve.ts';

const program = new Command('opentox')
  .description('Command-line client of OpenTox 1.2 services. Token: OPENTOX_TOKEN, or one saved by "opentox login".')
  .addOption(new Option('-s, --service <url>', 'base URI of the service').env('OPENTOX_SERVICE').default('http://localhost:8080'))
  .option('--progress', 'draw progress bars even when stderr is not a terminal')
  .showHelpAfterError()
  .hook('preAction', () => {
    if (program.opts<{ progress?: boolean }>().progress) forceProgress();
  });

const session = () => sessionOf(program.opts<{ service: string }>().service);
const collect = (value: string, previous: string[]) => [...previous, value];
const optional = (name: string, value: string | undefined): Array<[string, string]> => (value === undefined ? [] : [[name, value]]);

program.command('upload').argument('<file>', 'CSV, SDF, MOL, SMILES or RDF file').description('upload a file as a new dataset; prints its URI')
  .option('-t, --type <media-type>', 'media type of the file (default: from its extension)')
  .action((file: string, o: { type?: string }) => upload(session(), file, o));

program.command('apply').argument('<algorithm>', 'algorithm URI or name in the service\'s /algorithm list (knn, physchem, …)').description('apply an algorithm to a dataset; prints the result URI')
  .requiredOption('-d, --dataset <uri>', 'dataset_uri')
  .option('-f, --prediction-feature <uri>', 'prediction_feature, for supervised algorithms')
  .option('-p, --param <name=value>', 'algorithm parameter (repeatable)', collect, [])
  .action(async (algorithm: string, o: { dataset: string; predictionFeature?: string; param: string[] }) => post(session(), await resolveResource(session(), 'algorithm', algorithm), [
    ['dataset_uri', o.dataset], ...optional('prediction_feature', o.predictionFeature), ...params(o.param),
  ]));

program.command('predict').argument('<model>', 'model URI or id in the service\'s /model list').description('predict a dataset with a model; prints the dataset of predictions')
  .requiredOption('-d, --dataset <uri>', 'dataset_uri')
  .action(async (model: string, o: { dataset: string }) => post(session(), await resolveResource(session(), 'model', model), [['dataset_uri', o.dataset]]));

program.command('validate').argument('<algorithm>', 'learning algorithm URI or name (knn, …)').description('validate a learning algorithm on a dataset (cross-validation, or a training/test split with --split); prints the validation URI')
  .requiredOption('-d, --dataset <uri>', 'dataset_uri')
  .requiredOption('-f, --prediction-feature <uri>', 'prediction_feature')
  .option('--folds <n>', 'num_folds of the cross-validation')
  .option('--split <ratio>', 'split_ratio: a training/test split instead of a cross-validation')
  .option('--seed <n>', 'random_seed')
  .option('-p, --param <name=value>', 'algorithm parameter (repeatable)', collect, [])
  .action(async (algorithm: string, o: { dataset: string; predictionFeature: string; folds?: string; split?: string; seed?: string; param: string[] }) => {
    const s = session();
    const type = o.split === undefined ? 'crossvalidation' : 'training_test_split';
    await post(s, `${s.service}/validation/${type}`, [
      ['algorithm_uri', await resolveResource(s, 'algorithm', algorithm)], ['dataset_uri', o.dataset], ['prediction_feature', o.predictionFeature],
      ...optional('num_folds', o.folds), ...optional('split_ratio', o.split), ...optional('random_seed', o.seed), ...params(o.param),
    ]);
  });

program.command('get').argument('<uri>').description('download a resource')
  .option('-F, --format <name>', `one of ${Object.keys(FORMATS).join(', ')}, or a media type`)
  .option('-o, --output <file>', 'write to a file instead of stdout')
  .action((uri: string, o: { format?: string; output?: string }) => get(session(), uri, o));

program.command('tasks').description('list tasks of the service')
  .option('--status <status>', 'only Queued, Running, Completed, Cancelled or Error')
  .action((o: { status?: string }) => tasks(session(), o.status));

program.command('wait').argument('<task>', 'task URI').description('follow a task until it ends; prints its result URI(s)')
  .action((task: string) => wait(session(), task));

program.command('login').description('log in and save the token for this service (password from OPENTOX_PASSWORD or stdin)')
  .requiredOption('-u, --user <name>')
  .option('--auth <url>', 'authentication service (default: <service>/auth)')
  .action(async (o: { user: string; auth?: string }) => login(session(), { ...o, password: process.env.OPENTOX_PASSWORD ?? (await readPassword()) }));

async function readPassword(): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdin.isTTY ? process.stderr : undefined, terminal: Boolean(process.stdin.isTTY) });
  try {
    return (await rl.question(process.stdin.isTTY ? 'password: ' : '')).trim();
  } finally {
    rl.close();
  }
}

try {
  await program.parseAsync();
} catch (e) {
  // A service's error report, or a usage error: readable, and a non-zero exit for scripts.
  process.stderr.write(e instanceof ServiceError ? `error: ${e.message}\n` : `error: ${(e as Error).message}\n`);
  process.exitCode = 1;
}
