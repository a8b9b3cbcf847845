// Dataset upload, measured from outside: kazius.csv uploaded to `npm start` in a child
// process, to a finished dataset, beside the toolkit's own parse rate of the same file in
// this process (the Ruby service took 37 s). largeDataset.ts has the 100,000-row dataset.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { sharedData } from '../test/helpers/data.ts';
import { upload } from './lib/upload.ts';
import { readCsv } from '../src/datasets/csv.ts';
import { initChem } from '../src/chem/index.ts';
import type { BenchModule, BenchRow } from './types.ts';
import { startService } from './lib/processes.ts';
import { loadAverage, untilIdle } from './lib/idle.ts';
import { medianBy } from './lib/median.ts';
import { parseScaling } from './lib/parseScaling.ts';
import { timeParse } from './lib/parsePass.ts';
import { cpuPer, threadTicks, totalCpu, type CpuShares } from './lib/threadCpu.ts';

const RUBY_KAZIUS_S = 37;

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

interface Round {
  uploadS: number;
  rawS: number;
  workS: number;
  load: string;
  /** The service's CPU during the upload by thread, in microseconds: the job threads are its busiest. */
  cpu: CpuShares;
}

/**
 * One round: kazius.csv uploaded to `npm start` in a child process, as its first upload once
 * its start is over, from this process as a client; then the baselines in this process.
 */
async function round(text: string, smiles: readonly string[], cores: number): Promise<Round> {
  // The upload first, into a service that has parsed nothing yet: its job threads start, and
  // load their toolkits, with this first job. Parsing the baselines first, in the same
  // process as the service, had warmed the toolkits' code for the upload too.
  const service = await startService({ WORKERS: String(cores) });
  let uploadS: number;
  let load: string;
  let cpu: CpuShares;
  try {
    await untilIdle();
    const pid = service.process.pid!;
    const before = threadTicks(pid);
    const t = performance.now();
    await upload(service.url, text, 'text/csv');
    uploadS = (performance.now() - t) / 1000;
    cpu = cpuPer(pid, before, threadTicks(pid), 1, cores);
    load = loadAverage();
  } finally {
    await service.stop();
  }
  // The baselines once the service has gone, each after an untimed pass.
  await untilIdle();
  const rawS = timeParse(smiles, {});
  // What the upload reader does per structure (src/datasets/uploadReader.ts): the parse without
  // a molfile (SMILES input has no coordinates to keep) and the search fingerprints.
  const workS = timeParse(smiles, { molfile: 'withCoordinates', fingerprints: true });
  return { uploadS, rawS, workS, load, cpu };
}

/** Rounds of upload and baselines: this machine's speed moves by a third within minutes. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

export async function kazius(): Promise<BenchRow[]> {
  const text = readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8');
  const rows = readCsv(text).rows;
  const smiles = rows.map((r) => r.structure!.text);
  // The upload parses in the worker pool (one thread per core): its ceiling is the
  // one-thread rate × cores.
  const cores = os.availableParallelism();
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await round(text, smiles, cores));
  const ratio = (r: Round) => r.rawS / r.uploadS / cores;
  // The round with the median ratio, and every round's ratio beside it.
  const { uploadS, rawS, workS, load, cpu } = medianBy(rounds, ratio);
  // The upload takes at least its CPU ÷ the cores, so the first row's ratio (the one-thread
  // parse ÷ the upload ÷ the cores) is at most the one-thread parse ÷ that CPU.
  const seconds = (micros: number) => micros / 1e6;
  const cpuS = seconds(totalCpu(cpu));
  const all = (of: (r: Round) => number) => rounds.map((r) => fmt(of(r), 2)).join(', ');
  // The service gone, the machine quiet: how much of "× cores" the cores give the toolkit now.
  await untilIdle();
  const scaling = await parseScaling(smiles, cores, ROUNDS);
  return [
    { bench: `kazius.csv upload to a finished dataset (${rows.length} rows), the first upload to \`npm start\` once it is ready, median of ${ROUNDS} rounds`, figure: `${fmt(uploadS)} s, ${fmt(rows.length / uploadS, 0)} compounds/s`, baseline: `toolkit parse alone, one thread: ${fmt(rawS)} s, ${fmt(rows.length / rawS, 0)} compounds/s`, ratio: `${fmt(rawS / uploadS, 2)}× the one-thread rate, ${fmt(rawS / uploadS / cores, 2)}× that rate × ${cores} cores (rounds ${all(ratio)}; uploads ${rounds.map((r) => fmt(r.uploadS)).join(', ')} s)` },
    { bench: 'kazius.csv upload against the parse worker\'s own work', figure: `${fmt(uploadS)} s`, baseline: `parse + search fingerprints but the pattern, one thread: ${fmt(workS)} s, ${fmt(rows.length / workS, 0)} compounds/s`, ratio: `${fmt(workS / uploadS / cores, 2)}× that rate × ${cores} cores (rounds ${all((r) => r.workS / r.uploadS / cores)}; load average ${load} after the upload)` },
    { bench: 'CPU of the upload in the service, by thread (/proc), in the median round', figure: `${fmt(cpuS, 2)} s: event loop ${fmt(seconds(cpu.main), 2)}, job threads ${cpu.busiest.map((m) => fmt(seconds(m), 2)).join(' + ')}, other threads ${fmt(seconds(cpu.rest), 2)}`, baseline: `toolkit parse alone, one thread: ${fmt(rawS)} s`, ratio: `${fmt(cpuS / rawS, 2)}× (the first row's ratio is at most the one-thread parse ÷ this: ${fmt(rawS / cpuS, 2)})` },
    { bench: `kazius SMILES parsed in ${cores} threads at once against one thread alone (what the cores give the toolkit itself this hour: the rows above count the one-thread rate × ${cores}), median of ${ROUNDS} rounds`, figure: `${fmt(scaling.all, 0)} compounds/s in ${cores} threads`, baseline: `${fmt(scaling.one, 0)} compounds/s in one`, ratio: `${fmt(scaling.all / scaling.one, 2)}× (an upload with no cost but the parse would reach ${fmt(scaling.all / scaling.one / cores, 2)}× the one-thread rate × ${cores})` },
    { bench: 'kazius.csv upload vs the Ruby OpenTox service', figure: `${fmt(uploadS)} s`, baseline: `${RUBY_KAZIUS_S} s (published, not this machine)`, ratio: `${fmt(RUBY_KAZIUS_S / uploadS, 1)}× faster` },
  ];
}

const bench: BenchModule = {
  title: 'Datasets: kazius upload (out of process)',
  run: async () => {
    await initChem();
    return kazius();
  },
};

export default bench;
