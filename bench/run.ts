// npm run bench: runs every benchmark module in one process and prints one Markdown table
// per module. `npm run bench -- NAME` runs only modules whose file name contains NAME.
import type { BenchModule } from './types.ts';

/** Each resource's benchmark module; add yours here. */
const MODULES: Array<[string, () => Promise<{ default: BenchModule }>]> = [
  ['start', () => import('./start.ts')],
  ['store', () => import('./store.ts')],
  ['tasks', () => import('./tasks.ts')],
  ['algorithms', () => import('./algorithms.ts')],
  ['forest', () => import('./forest.ts')],
  ['modelsCv', () => import('./modelsCv.ts')],
  ['rdf', () => import('./rdf.ts')],
  ['datasets', () => import('./datasets.ts')],
  ['largeDataset', () => import('./largeDataset.ts')],
  ['search', () => import('./search.ts')],
  ['compounds', () => import('./compounds.ts')],
  ['auth', () => import('./auth.ts')],
  ['http', () => import('./http.ts')],
  ['jobStall', () => import('./jobStall.ts')],
  ['scale', () => import('./scale.ts')],
  ['mixed', () => import('./mixed.ts')],
];

function table(title: string, rows: Awaited<ReturnType<BenchModule['run']>>): string {
  const head = `### ${title}\n\n| benchmark | figure | baseline (same run) | ratio |\n|---|---|---|---|\n`;
  return head + rows.map((r) => `| ${r.bench} | ${r.figure} | ${r.baseline ?? ''} | ${r.ratio ?? ''} |`).join('\n') + '\n';
}

async function main(): Promise<void> {
  const only = process.argv[2];
  for (const [name, load] of MODULES) {
    if (only && !name.includes(only)) continue;
    const mod = (await load()).default;
    const rows = await mod.run();
    console.log(table(mod.title, rows));
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
