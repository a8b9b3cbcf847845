// The README is the user's manual: it keeps the documented quick start and no leftover merge
// conflict markers; docs/configuration.md lists every configuration option with its flag,
// and each option the README shows reads as it does there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { OPTIONS, flagName } from '../../src/config.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const configuration = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');

describe('README', () => {
  it('docs/configuration.md lists every configuration option with its flag and meaning', () => {
    for (const o of OPTIONS) {
      expect(configuration, o.env).to.include(`| \`${o.env}\` | \`${flagName(o.env)}\` | ${o.describe} |`);
    }
  });

  it('the options the README shows read as in docs/configuration.md, and name real options', () => {
    const rows = readme.split('\n').filter((l) => /^\| `[A-Z_]+` \| `--/.test(l));
    expect(rows.length).to.be.greaterThan(5);
    for (const row of rows) {
      expect(configuration, row).to.include(row);
      expect(OPTIONS.map((o) => o.env), row).to.include(row.split('`')[1]);
    }
  });

  it('starts with npm ci && npm start and npm ci && npm test', () => {
    expect(readme).to.match(/^npm ci && npm start\b/m);
    expect(readme).to.match(/^npm ci && npm test\b/m);
  });

  it('has no merge conflict markers', () => {
    expect(readme).not.to.match(/^(<{7}|={7}|>{7})( |$)/m);
  });
});
