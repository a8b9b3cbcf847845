// Loads queries/*.rq (queries) and queries/*.ru (updates) once at start.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bind, type Bindable } from './binder.ts';

export const QUERY_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../queries');

export class QueryFiles {
  private readonly templates = new Map<string, string>();

  constructor(dir = QUERY_DIR) {
    for (const file of readdirSync(dir)) {
      if (!/\.(rq|ru)$/.test(file)) continue;
      this.templates.set(file.replace(/\.(rq|ru)$/, ''), readFileSync(path.join(dir, file), 'utf8'));
    }
  }

  has(name: string): boolean {
    return this.templates.has(name);
  }

  /** The text of query `name` with its placeholders bound. */
  text(name: string, values: Record<string, Bindable> = {}): string {
    const template = this.templates.get(name);
    if (template === undefined) throw new Error(`no query file queries/${name}.rq`);
    return bind(template, values, name);
  }
}
