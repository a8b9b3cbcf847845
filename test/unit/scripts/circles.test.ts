// The import-circle check of `npm run lint` (scripts/circles.mjs), run on folders of its own:
// a circle of `import type` alone fails it, as does an import of ours it cannot resolve, and a
// folder without either passes, .mjs files read too.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { tempDir } from '../../helpers/tempDirs.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function check(files: Record<string, string>) {
  const dir = tempDir('circles-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return spawnSync(process.execPath, ['scripts/circles.mjs', dir], { cwd: ROOT, encoding: 'utf8' });
}

describe('npm run lint: import circles', function () {
  this.timeout(60_000);

  it('fails on a circle of type-only imports and names it', () => {
    const r = check({
      'a/one.ts': "import type { Two } from '../b/two.ts';\nexport interface One { two?: Two }\n",
      'b/two.ts': "import type { One } from '../a/one.ts';\nexport interface Two { one?: One }\n",
    });
    expect(r.status, r.stderr).to.equal(1);
    expect(r.stderr).to.contain('import circle: a/one.ts > b/two.ts > a/one.ts');
  });

  it('fails on an import of our own it cannot resolve', () => {
    const r = check({ 'one.ts': "import { gone } from './gone.ts';\nexport const one = gone;\n" });
    expect(r.status, r.stderr).to.equal(1);
    expect(r.stderr).to.contain('import not resolved: ./gone.ts');
  });

  it('passes a folder without circles, reading its .ts and .mjs files, npm packages aside', () => {
    const r = check({
      'one.ts': "import type { Two } from './two.ts';\nimport { Koa } from 'koa';\nexport type One = Two | typeof Koa;\n",
      'two.ts': 'export interface Two { n: number }\n',
      'entry.mjs': "import { register } from 'tsx/esm/api';\nregister();\nawait import('./one.ts');\n",
    });
    expect(r.stderr).to.equal('');
    expect(r.status).to.equal(0);
    expect(r.stdout).to.match(/^3 files of \S+ read, no import circle\n$/);
  });
});
