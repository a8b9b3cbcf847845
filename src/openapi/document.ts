// The OpenAPI 3.1 document, built from the operation table (operations.ts), the media-type
// tables (src/rdf/formats.ts, src/chem/formats.ts, dataset uploads), the algorithm
// catalogue and the JSON Schemas. Built once per process: none of it changes at run time.
import { readFileSync } from 'node:fs';
import type { Config } from '../config.ts';
import { JSON_LD, JSON_PLAIN, RDF_MEDIA_TYPES, TEXT_PLAIN, URI_LIST } from '../rdf/formats.ts';
import { INPUT_MEDIA_TYPES, MEDIA } from '../chem/formats.ts';
import { UPLOAD_MEDIA_TYPES } from '../datasets/readTable.ts';
import { ALGORITHMS } from '../algorithms/catalogue.ts';
import { OPERATIONS, type AnswerKind, type Operation, type RequestKind } from './operations.ts';
import { SCHEMAS } from './schemas.ts';
import { algorithmForm, parameters } from './parameters.ts';

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const text: Schema = { type: 'string' };
const binary: Schema = { type: 'string', contentMediaType: 'application/octet-stream' };
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/** RDF in every syntax of the table, plain JSON under `schema`, and a page for browsers (docs/pages.md). */
const rdf = (schema: string): Record<string, Schema> => ({
  ...Object.fromEntries(RDF_MEDIA_TYPES.map((t) => [t, { schema: text }])),
  [JSON_PLAIN]: { schema: ref(schema) },
  'text/html': { schema: text },
});
const uriList = { [URI_LIST]: { schema: ref('UriList') } };
const CHEM_OUT = [MEDIA.smiles, MEDIA.inchi, MEDIA.inchikey, MEDIA.molfile, MEDIA.sdf, MEDIA.mol2, MEDIA.cml, MEDIA.cdxml, MEDIA.xyz];
const IMAGES = { [MEDIA.png]: { schema: binary }, [MEDIA.svg]: { schema: text } };

function answer(kind: AnswerKind, schema: string | undefined): Record<string, Schema> | undefined {
  switch (kind) {
    case 'resource': return rdf(schema ?? 'Node');
    case 'model': return { ...rdf(schema ?? 'Model'), 'application/onnx': { schema: binary } };
    case 'warnings': return { ...rdf('Node'), 'text/csv': { schema: text }, [TEXT_PLAIN]: { schema: text } };
    case 'qmrf': return { 'application/xml': { schema: text }, 'text/html': { schema: text } };
    case 'list': return { ...rdf(schema ?? 'List'), ...uriList };
    case 'dataset': return { ...rdf(schema ?? 'Dataset'), 'text/csv': { schema: text }, [MEDIA.sdf]: { schema: text }, ...uriList };
    case 'structure': return { ...Object.fromEntries(CHEM_OUT.map((t) => [t, { schema: text }])), ...IMAGES, ...rdf(schema ?? 'Compound') };
    case 'image': return IMAGES;
    case 'task': return { ...uriList, ...rdf('Task') };
    case 'uriList': return uriList;
    case 'empty': return undefined;
    case 'sparql': return {
      'application/sparql-results+json': { schema: { type: 'object' } }, 'application/sparql-results+xml': { schema: text },
      'text/csv': { schema: text }, 'text/tab-separated-values': { schema: text },
      // CONSTRUCT and DESCRIBE: RDF only (a query's triples have no resource to be plain JSON about).
      ...Object.fromEntries(RDF_MEDIA_TYPES.map((t) => [t, { schema: text }])),
    };
    case 'comparison': return { [JSON_PLAIN]: { schema: { type: 'object' } }, 'text/csv': { schema: text }, 'text/html': { schema: text } };
    case 'openapi': return undefined; // set per path below
    case 'context': return { [JSON_LD]: { schema: { type: 'object', required: ['@context'] } } };
    case 'html': return { 'text/html': { schema: text } };
    case 'script': return { 'text/javascript': { schema: text }, 'text/css': { schema: text } };
    case 'auth': return { [TEXT_PLAIN]: { schema: text } };
  }
}

const formOf = (fields: Readonly<Record<string, string>> = {}): Schema => ({
  type: 'object', properties: Object.fromEntries(Object.entries(fields).map(([k, d]) => [k, { type: 'string', description: d }])),
});

function requestBody(kind: RequestKind, fields?: Readonly<Record<string, string>>): Schema {
  const content = (types: readonly string[], schema: Schema = text) => Object.fromEntries(types.map((t) => [t, { schema }]));
  switch (kind) {
    case 'form': return { content: { [FORM]: { schema: formOf(fields) }, [MULTIPART]: { schema: formOf(fields) } } };
    case 'rdf': return { required: true, content: content([...RDF_MEDIA_TYPES, JSON_PLAIN]) };
    case 'upload': return { required: true, content: { ...content(UPLOAD_MEDIA_TYPES), [MULTIPART]: { schema: { type: 'object', properties: { file: binary, title: text } } } } };
    case 'structure': return { required: true, content: content(INPUT_MEDIA_TYPES) };
    case 'conformer': return { content: { ...content(INPUT_MEDIA_TYPES), [FORM]: { schema: { type: 'object', properties: { generate: { type: 'integer', minimum: 1, maximum: 20 } } } } } };
    case 'sparql': return { required: true, content: { 'application/sparql-query': { schema: text }, [FORM]: { schema: { type: 'object', required: ['query'], properties: { query: text } } } } };
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request: a parameter or the body is wrong (the report names it)', 401: 'No valid token (subjectid header or Bearer)',
  403: 'The token\'s user may not do this', 404: 'No such resource', 406: 'None of the accepted media types can be served',
  409: 'Other resources refer to it (force=true to go on)', 413: 'The body is too large', 415: 'The body\'s media type is not read here',
  429: 'Too many jobs or logins: try later (Retry-After)', 500: 'The service failed', 503: 'The service is overloaded or the task was cancelled',
};
const ERROR_CONTENT = { ...rdf('ErrorReport'), [TEXT_PLAIN]: { schema: text } };
const errorResponse = (status: number): Schema => ({ description: `${STATUS_TEXT[status] ?? 'Error'}: an ot:ErrorReport`, content: ERROR_CONTENT });

const PATH_PARAMS: Record<string, string> = { id: 'the resource\'s id', n: 'number within the resource', hash: 'the parameter hash of a parameterised algorithm', file: 'a file name' };

function operation(o: Operation, operationId: string): Schema {
  const pathParams = [...o.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, description: PATH_PARAMS[name!], schema: text }));
  const query = (o.query ?? []).map((q) => ({ $ref: `#/components/parameters/${q}` }));
  const content = answer(o.answer, o.schema);
  const responses: Record<string, Schema> = {};
  if (o.async) {
    responses['200'] = { description: 'Done at once: the result\'s URI (SPEC §4.3)', content: answer('task', undefined) };
    responses['201'] = { description: 'Done at once: one new resource, its URI in Location', content: answer('task', undefined) };
    responses['202'] = { description: 'Accepted: the task, its URI in Location; poll it (SPEC §4.3)', headers: { Location: { schema: { type: 'string', format: 'uri' } } }, content: answer('task', undefined) };
  } else if (o.answer === 'task') {
    responses['200'] = { description: 'The task, completed: its result URIs as text/uri-list', content };
    responses['201'] = { description: 'The task, completed with one new resource', content };
    responses['202'] = { description: 'The task, still queued or running', content };
  } else {
    responses['200'] = content ? { description: 'OK', content } : { description: 'OK, no body' };
  }
  if (o.answer === 'uriList' && o.method === 'post') responses['201'] = { description: 'Created: its URI, in Location too', content };
  for (const status of new Set([...(o.errors ?? []), 401, 403, 406, 500])) responses[String(status)] = { $ref: `#/components/responses/E${status}` };
  const out: Schema = {
    operationId, tags: [o.tag], summary: o.summary,
    ...(o.authOnly ? { description: 'With AUTH_MODE=local or opensso; 404 when auth is off.' } : {}),
    parameters: [...pathParams, ...query, ...(o.async ? [{ $ref: '#/components/parameters/Prefer' }] : [])], responses,
  };
  if (o.request) out.requestBody = requestBody(o.request, o.fields);
  return out;
}

const idOf = (o: Operation): string => `${o.method}${o.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`;

/** POST /algorithm/{id} once per algorithm of the catalogue, with its own parameters. */
function algorithmPaths(): Record<string, Schema> {
  return Object.fromEntries(ALGORITHMS.map((def) => [`/algorithm/${def.id}`, {
    post: {
      operationId: `apply_${def.id.replace(/\W/g, '_')}`, tags: ['algorithm parameters'], summary: `Apply ${def.title}`, description: def.description,
      'x-route': '/algorithm/{id}',
      parameters: [{ $ref: '#/components/parameters/Prefer' }],
      requestBody: { required: true, content: { [FORM]: { schema: algorithmForm(def) }, [MULTIPART]: { schema: algorithmForm(def) } } },
      responses: {
        '200': { description: 'Done at once', content: answer('task', undefined) },
        '202': { description: 'Accepted: the task (SPEC §4.3)', content: answer('task', undefined) },
        '400': { $ref: '#/components/responses/E400' }, '429': { $ref: '#/components/responses/E429' }, '500': { $ref: '#/components/responses/E500' },
      },
    },
  }]));
}

const version = (): string => (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function openApiDocument(config: Pick<Config, 'baseUrl' | 'pageSize' | 'maxPageSize'>): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const o of OPERATIONS) (paths[o.path] ??= {})[o.method] = operation(o, idOf(o));
  paths['/openapi.json']!.get!.responses = { '200': { description: 'This document', content: { [JSON_PLAIN]: { schema: { type: 'object' } } } } };
  paths['/openapi.yaml']!.get!.responses = { '200': { description: 'This document', content: { 'application/yaml': { schema: text } } } };
  return {
    openapi: '3.1.0',
    info: {
      title: 'OpenTox REST service', version: version(),
      description: 'OpenTox REST interface 1.2. Every resource answers RDF (RDF/XML by default, Turtle, N-Triples, N3, JSON-LD) and plain JSON (application/json: compact JSON-LD under /context.jsonld). Jobs answer 202 with a task to poll. Errors are ot:ErrorReport.',
    },
    servers: [{ url: config.baseUrl }],
    security: [{}, { subjectid: [] }, { bearer: [] }],
    tags: ['service', 'algorithm', 'algorithm parameters', 'compound', 'dataset', 'feature', 'model', 'task', 'validation', 'ontology', 'sparql', 'auth'].map((name) => ({ name })),
    paths: { ...paths, ...algorithmPaths() },
    components: {
      schemas: SCHEMAS,
      parameters: parameters(config),
      responses: Object.fromEntries(Object.keys(STATUS_TEXT).map((s) => [`E${s}`, errorResponse(Number(s))])),
      securitySchemes: {
        subjectid: { type: 'apiKey', in: 'header', name: 'subjectid', description: 'An OpenTox token (SPEC §5.1), from POST /auth/authenticate' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The same token as Authorization: Bearer' },
      },
    },
  };
}
