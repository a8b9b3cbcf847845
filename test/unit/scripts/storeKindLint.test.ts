// The lint rule that keeps `store.kind` inside src/store/: domain code asks the store's
// capabilities (src/store/api.ts). Linted with the project's own eslint.config.js, as the
// text of real files with the old engine checks put back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ESLint } from 'eslint';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function messagesOf(rel: string, edit: (text: string) => string) {
  const file = path.join(ROOT, rel);
  const text = edit(readFileSync(file, 'utf8'));
  const [result] = await new ESLint({ cwd: ROOT }).lintText(text, { filePath: file });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax');
}

describe('npm run lint: no store.kind outside src/store', function () {
  this.timeout(120_000);

  it('fails domain code that asks which engine the store is, in each form of the question', async () => {
    const messages = await messagesOf('src/tasks/sharedFiles.ts', (t) => {
      const out = t.replace('deps.store.capabilities.filesInStore', "deps.store.kind === 'sparql'");
      expect(out).to.not.equal(t);
      return `${out}\nexport const engineOf = (store: FileDeps['store']) => store.kind;\nexport function engine(deps: FileDeps) {\n  const { kind } = deps.store;\n  return kind;\n}\n`;
    });
    expect(messages.map((m) => m.message)).to.deep.equal(Array(3).fill('ask store.capabilities (src/store/api.ts), not which engine the store is'));
  });

  it('passes the same question inside src/store and other kinds elsewhere', async () => {
    const inStore = await messagesOf('src/store/sparql/store.ts', (t) => `${t}\nexport const engineOf = (store: SparqlStore) => store.kind;\n`);
    expect(inStore).to.deep.equal([]);
    const otherKind = await messagesOf('src/tasks/sharedFiles.ts', (t) => `${t}\nexport const kindOf = (job: { kind: string }) => job.kind;\n`);
    expect(otherKind).to.deep.equal([]);
  });
});
