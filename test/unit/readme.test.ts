// The README is the user's manual: it must list every configuration option with its flag,
// keep the documented quick start, and hold no leftover merge conflict markers.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { OPTIONS, flagName } from '../../src/config.ts';

const readme = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md'), 'utf8');

describe('README', () => {
  it('lists every configuration option with its flag and meaning', () => {
    for (const o of OPTIONS) {
      expect(readme, o.env).to.include(`| \`${o.env}\` | \`${flagName(o.env)}\` | ${o.describe} |`);
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
