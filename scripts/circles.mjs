// Import circles in src/ (part of `npm run lint`): there must be none, `import type` ones
// included, since a circle between two modules is one concept split in two files, or a
// missing module of shared types. Fails, too, when madge did not read a file of src/ or
// could not resolve one of our own imports, so that a clean answer means every file was
// checked. Bare specifiers madge cannot resolve are npm packages, outside the graph anyway.
import { readdirSync } from 'node:fs';
import process from 'node:process';
import madge from 'madge';

/** The folder to check; `src` unless named (the tests check a folder of their own). */
const SRC = process.argv[2] ?? 'src';
const EXTENSIONS = ['ts', 'mjs'];

const result = await madge(SRC, {
  fileExtensions: EXTENSIONS,
  tsConfig: 'tsconfig.json',
  detectiveOptions: { ts: { skipTypeImports: false }, es6: { skipTypeImports: false } },
});
const graph = result.obj();
const files = readdirSync(SRC, { recursive: true }).map(String).filter((f) => EXTENSIONS.some((e) => f.endsWith(`.${e}`)));
const unread = files.map((f) => f.split('\\').join('/')).filter((f) => !(f in graph));
const unresolved = result.warnings().skipped.filter((s) => s.startsWith('.') || s.startsWith('/'));
const circles = result.circular();

const problems = [
  ...circles.map((c) => `import circle: ${[...c, c[0]].join(' > ')}`),
  ...unread.map((f) => `not read by madge: ${SRC}/${f}`),
  ...unresolved.map((s) => `import not resolved: ${s}`),
];
if (problems.length > 0) {
  process.stderr.write(problems.map((p) => `${p}\n`).join(''));
  process.exit(1);
}
process.stdout.write(`${files.length} files of ${SRC}/ read, no import circle\n`);
