// Query and path parameters of the OpenAPI document (components.parameters), with their
// types, ranges and defaults as the code checks them; and the form schema of each
// algorithm, from its ParamDefs in the catalogue.
import type { Config } from '../config.ts';
import { DEFAULT_SIZE, MAX_SIZE } from '../chem/depict.ts';
import { DEFAULT_THRESHOLD } from '../search/params.ts';
import { allowedRange, type ParamDef } from '../algorithms/params.ts';
import type { AlgorithmDef } from '../algorithms/types.ts';

type Schema = Record<string, unknown>;

const query = (name: string, description: string, schema: Schema, more: Schema = {}): Schema => ({ name, in: 'query', description, schema, ...more });
const uris = (name: string, what: string): Schema => query(name, `${what} (repeated; also written ${name}[])`, { type: 'array', items: { type: 'string', format: 'uri' } }, { style: 'form', explode: true });

export function parameters(config: Pick<Config, 'pageSize' | 'maxPageSize'>): Record<string, Schema> {
  const size = (name: string) => query(name, `image ${name === 'w' ? 'width' : 'height'} in pixels`, { type: 'integer', minimum: 16, maximum: MAX_SIZE, default: DEFAULT_SIZE });
  return {
    page: query('page', 'page number, from 0', { type: 'integer', minimum: 0, maximum: 1_000_000_000, default: 0 }),
    pagesize: query('pagesize', `items per page (larger ones are capped to ${config.maxPageSize})`, { type: 'integer', minimum: 1, default: config.pageSize }),
    max: query('max', 'at most this many items over all pages', { type: 'integer', minimum: 0 }),
    compound_uris: uris('compound_uris', 'only these compounds'),
    feature_uris: uris('feature_uris', 'only these features'),
    validation_uris: uris('validation_uris', 'two or more cross-validations'),
    nominal: uris('nominal', 'columns (titles or feature URIs) to read as nominal'),
    sameas: query('sameas', 'resources owl:sameAs this IRI', { type: 'string', format: 'uri' }),
    type: query('type', 'algorithms of this type or a subclass (an IRI or a prefixed name such as ota:Classification)', { type: 'string' }),
    search: query('search', 'exact search: a SMILES, InChI or InChIKey, or a dataset value (name, CAS number)', { type: 'string', minLength: 1 }),
    similarity: query('similarity', 'similarity search: a SMILES (Tanimoto on Morgan fingerprints, radius 2, 2048 bits)', { type: 'string', minLength: 1 }),
    threshold: query('threshold', 'least Tanimoto similarity of a similarity search', { type: 'number', exclusiveMinimum: 0, maximum: 1, default: DEFAULT_THRESHOLD }),
    smarts: query('smarts', 'substructure search: a SMARTS pattern', { type: 'string', minLength: 1 }),
    substructure: query('substructure', 'substructure search: a structure as SMILES', { type: 'string', minLength: 1 }),
    w: size('w'),
    h: size('h'),
    force: query('force', 'delete or replace although other resources refer to it', { type: 'boolean', default: false }),
    generate: query('generate', 'number of conformers to generate', { type: 'integer', minimum: 1, maximum: 20 }),
    title: query('title', 'title of the ontology (dc:title)', { type: 'string' }),
    query: query('query', 'a SPARQL 1.1 query (SELECT, ASK, CONSTRUCT or DESCRIBE)', { type: 'string' }, { required: true }),
    Prefer: { name: 'Prefer', in: 'header', description: 'RFC 7240: wait=N (seconds, at most 60) answers the result if the job ends within N, else 202; respond-async always answers 202', schema: { type: 'string', examples: ['wait=10', 'respond-async'] } },
    media: query('media', 'a media type that stands for Accept (browsers cannot set Accept)', { type: 'string' }),
  };
}

/** The JSON Schema of one algorithm parameter: type, range, choices and default. */
export function paramSchema(p: ParamDef): Schema {
  const schema: Schema = { description: `${p.description} (${allowedRange(p)})` };
  switch (p.type) {
    case 'boolean': schema.type = 'boolean'; break;
    case 'int': schema.type = 'integer'; break;
    case 'float': schema.type = 'number'; break;
    case 'string': schema.type = 'string'; break;
    case 'list': schema.type = 'array'; schema.items = { type: 'string' }; break;
  }
  const range: Schema = {};
  if (p.min !== undefined) range[p.minExclusive ? 'exclusiveMinimum' : 'minimum'] = p.min;
  if (p.max !== undefined) range[p.maxExclusive ? 'exclusiveMaximum' : 'maximum'] = p.max;
  // A value that switches the step off lies outside the range: either it or the range.
  if (p.off !== undefined) schema.anyOf = [{ const: p.off }, range];
  else Object.assign(schema, range);
  if (p.choices) schema.enum = [...p.choices];
  if (p.default !== undefined) schema.default = p.default;
  return schema;
}

/** The form an algorithm takes: the common fields and its own parameters. */
export function algorithmForm(def: AlgorithmDef): Schema {
  const properties: Record<string, Schema> = {
    dataset_uri: { type: 'string', format: 'uri', description: 'the dataset to work on' },
    ...(def.supervised ? { prediction_feature: { type: 'string', format: 'uri', description: 'the feature to learn' } } : {}),
    dataset_service: { type: 'string', format: 'uri', description: 'a dataset service to post the result to, instead of this one' },
  };
  for (const p of def.params) properties[p.name] = paramSchema(p);
  const required = ['dataset_uri', ...(def.supervised ? ['prediction_feature'] : []), ...def.params.filter((p) => p.mandatory).map((p) => p.name)];
  return { type: 'object', required, properties };
}
