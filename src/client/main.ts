// `opentox`: a command-line client of OpenTox 1.2 services (SPEC §4): upload, apply, predict,
// get, tasks, wait, login. Result URIs go to stdout, progress and errors to stderr.
import { createInterface } from 'node:readline/promises';
import { Command, Option } from 'commander';
import { ServiceError } from './report.ts';
import { sessionOf } from './session.ts';
import { forceProgress } from './progress.ts';
import { FORMATS, get, login, params, post, tasks, upload, wait } from './commands.ts';

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

program.command('upload').argument('<file>', 'CSV, SDF, MOL, SMILES or RDF file').description('upload a file as a new dataset; prints its URI')
  .option('-t, --type <media-type>', 'media type of the file (default: from its extension)')
  .action((file: string, o: { type?: string }) => upload(session(), file, o));

program.command('apply').argument('<algorithm>', 'algorithm URI').description('apply an algorithm to a dataset; prints the result URI')
  .requiredOption('-d, --dataset <uri>', 'dataset_uri')
  .option('-f, --prediction-feature <uri>', 'prediction_feature, for supervised algorithms')
  .option('-p, --param <name=value>', 'algorithm parameter (repeatable)', collect, [])
  .action((algorithm: string, o: { dataset: string; predictionFeature?: string; param: string[] }) => post(session(), algorithm, [
    ['dataset_uri', o.dataset], ...(o.predictionFeature ? [['prediction_feature', o.predictionFeature] as [string, string]] : []), ...params(o.param),
  ]));

program.command('predict').argument('<model>', 'model URI').description('predict a dataset with a model; prints the dataset of predictions')
  .requiredOption('-d, --dataset <uri>', 'dataset_uri')
  .action((model: string, o: { dataset: string }) => post(session(), model, [['dataset_uri', o.dataset]]));

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
