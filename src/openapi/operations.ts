// What each route does, as a table (STYLE §10): the OpenAPI document (document.ts) is built
// from it, and test/integration/openapi.test.ts holds it against the routers both ways, so
// a route without a row, or a row without a route, fails the suite.

/** What a request carries. */
export type RequestKind = 'form' | 'rdf' | 'upload' | 'structure' | 'sparql' | 'conformer';

/** What a success answers. */
export type AnswerKind =
  | 'resource' | 'list' | 'dataset' | 'structure' | 'image' | 'task' | 'uriList' | 'empty' | 'sparql'
  | 'comparison' | 'openapi' | 'context' | 'html' | 'script' | 'css' | 'auth' | 'model' | 'qmrf' | 'warnings';

export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path template. */
  path: string;
  tag: string;
  summary: string;
  answer: AnswerKind;
  /** JSON Schema (components.schemas) of the application/json answer. */
  schema?: string;
  /** Query parameters (components.parameters). */
  query?: readonly string[];
  request?: RequestKind;
  /** Form fields of a form request: name → description. */
  fields?: Readonly<Record<string, string>>;
  /** Statuses besides the success and the errors every operation may answer. */
  errors?: readonly number[];
  /** A task may start: 202 with the task (SPEC §4.3); 200/201 when it ends at once. */
  async?: boolean;
  /** Answers 404 unless AUTH_MODE is local or opensso. */
  authOnly?: boolean;
}

const PAGED = ['page', 'pagesize', 'max'] as const;
const FORCE = ['force'] as const;
const SEARCH = ['search', 'similarity', 'threshold', 'smarts', 'substructure'] as const;

const op = (method: Operation['method'], path: string, tag: string, summary: string, answer: AnswerKind, more: Partial<Operation> = {}): Operation =>
  ({ method, path, tag, summary, answer, ...more });

const APPLY_FIELDS = {
  dataset_uri: 'the dataset to work on (a URI of this or another OpenTox service)',
  prediction_feature: 'the feature to learn (supervised algorithms)',
  dataset_service: 'a dataset service to post the result to, instead of this one',
  feature_definition: 'feature URIs of a feature selection (repeated)',
};
const CONFIDENCE_FIELD = { confidence_level: 'level of the held-out conformal intervals or prediction sets, in (0,1) (default 0.9)' };
const LEARN_FIELDS = { algorithm_uri: 'a learning algorithm of this service', dataset_uri: 'the dataset to validate on', prediction_feature: 'the feature to learn', ...CONFIDENCE_FIELD };

export const OPERATIONS: readonly Operation[] = [
  op('get', '/', 'service', 'Service description: the collections', 'list', { schema: 'Service' }),
  op('get', '/openapi.json', 'service', 'This OpenAPI document (JSON)', 'openapi'),
  op('get', '/openapi.yaml', 'service', 'This OpenAPI document (YAML)', 'openapi'),
  op('get', '/context.jsonld', 'service', 'The JSON-LD context of every application/json answer', 'context'),
  op('get', '/docs', 'service', 'This document, rendered (swagger-ui, served here)', 'html'),
  op('get', '/static/{file}', 'service', 'Script files of the pages (the structure editor)', 'script', { errors: [404] }),
  op('get', '/docs/{file}', 'service', 'Script and style files of the rendered document', 'script', { errors: [404] }),

  op('get', '/algorithm', 'algorithm', 'List algorithms (?sameas=, ?type= with subclasses)', 'list', { query: ['sameas', 'type', ...PAGED] }),
  op('get', '/algorithm/{id}', 'algorithm', 'Describe an algorithm with its parameters (types, defaults, ranges)', 'resource', { schema: 'Algorithm', errors: [404] }),
  op('get', '/algorithm/{id}/{hash}', 'algorithm', 'Describe a parameterised algorithm (fixed parameter values)', 'resource', { schema: 'Algorithm', errors: [404] }),
  op('post', '/algorithm/{id}', 'algorithm', 'Apply an algorithm: a model, a dataset of new features, or selected features (per algorithm below)', 'task', { request: 'form', fields: APPLY_FIELDS, async: true, errors: [400, 404, 429] }),
  op('post', '/algorithm/{id}/{hash}', 'algorithm', 'Apply a parameterised algorithm with its fixed values', 'task', { request: 'form', fields: APPLY_FIELDS, async: true, errors: [400, 404, 429] }),
  op('post', '/algorithm/preprocessing/featureselection/{id}', 'algorithm', 'Select features directly (SPEC §4.1): answers the selected feature URIs', 'uriList', { request: 'form', fields: { feature_definition: 'feature URIs to select from (repeated)' }, errors: [400, 404] }),

  op('get', '/compound', 'compound', 'List compounds, or search them by structure (?search=, ?similarity=, ?smarts=, ?substructure=)', 'list', { query: [...SEARCH, ...PAGED] }),
  op('post', '/compound', 'compound', 'Create a compound from a structure', 'uriList', { request: 'structure', errors: [400, 415] }),
  op('get', '/compound/{id}', 'compound', 'A compound in a chemical format or RDF', 'structure', { schema: 'Compound', query: ['w', 'h'], errors: [404] }),
  op('put', '/compound/{id}', 'compound', 'Replace a compound\'s structure', 'uriList', { request: 'structure', errors: [400, 404, 415] }),
  op('delete', '/compound/{id}', 'compound', 'Delete a compound', 'empty', { query: FORCE, errors: [404, 409] }),
  op('get', '/compound/{id}/image', 'compound', 'A depiction of the compound', 'image', { query: ['w', 'h'], errors: [404] }),
  op('get', '/compound/{id}/conformer', 'compound', 'List the compound\'s conformers', 'list', { errors: [404] }),
  op('post', '/compound/{id}/conformer', 'compound', 'Add a conformer (a 3D structure), or generate some (generate=N)', 'task', { request: 'conformer', query: ['generate'], async: true, errors: [400, 404, 415] }),
  op('delete', '/compound/{id}/conformer', 'compound', 'Delete every conformer of the compound', 'empty', { errors: [404] }),
  op('get', '/compound/{id}/conformer/{n}', 'compound', 'A conformer in a chemical format or RDF', 'structure', { schema: 'Compound', query: ['w', 'h'], errors: [404] }),
  op('put', '/compound/{id}/conformer/{n}', 'compound', 'Replace a conformer', 'uriList', { request: 'structure', errors: [400, 404, 415] }),
  op('delete', '/compound/{id}/conformer/{n}', 'compound', 'Delete a conformer', 'empty', { errors: [404] }),
  op('get', '/compound/{id}/conformer/{n}/image', 'compound', 'A depiction of the conformer', 'image', { query: ['w', 'h'], errors: [404] }),

  op('get', '/dataset', 'dataset', 'List datasets', 'list', { query: PAGED }),
  op('post', '/dataset', 'dataset', 'Upload a dataset (CSV, SDF, CML, SMILES, InChI, mol2, uri-list or RDF; a file in a form too)', 'task', { request: 'upload', query: ['nominal'], async: true, errors: [400, 413, 415, 429] }),
  op('get', '/dataset/{id}', 'dataset', 'A dataset (streamed), restricted by compound_uris[] and feature_uris[], paged; or searched by structure', 'dataset', { schema: 'Dataset', query: ['compound_uris', 'feature_uris', ...SEARCH, ...PAGED], errors: [404] }),
  op('put', '/dataset/{id}', 'dataset', 'Add entries to a dataset (same formats as POST)', 'task', { request: 'upload', query: ['nominal'], async: true, errors: [400, 404, 413, 415] }),
  op('delete', '/dataset/{id}', 'dataset', 'Delete a dataset', 'empty', { query: FORCE, errors: [404, 409] }),
  op('get', '/dataset/{id}/warnings', 'dataset', 'What the upload did not keep: dropped rows and emptied cells (RDF, CSV or one per line as text)', 'warnings', { errors: [404] }),
  op('get', '/dataset/{id}/compounds', 'dataset', 'The dataset\'s compounds', 'list', { query: PAGED, errors: [404] }),
  op('get', '/dataset/{id}/features', 'dataset', 'The dataset\'s features', 'list', { errors: [404] }),
  op('get', '/dataset/{id}/entry/{n}', 'dataset', 'One entry of a dataset', 'resource', { schema: 'DataEntryDocument', errors: [404] }),
  op('get', '/dataset/{id}/metadata', 'dataset', 'The dataset\'s metadata, without entries', 'resource', { schema: 'Dataset', errors: [404] }),
  op('put', '/dataset/{id}/metadata', 'dataset', 'Replace the dataset\'s metadata', 'uriList', { request: 'rdf', errors: [400, 404, 415] }),

  op('get', '/feature', 'feature', 'List features (?sameas=)', 'list', { query: ['sameas', ...PAGED] }),
  op('post', '/feature', 'feature', 'Create a feature from its RDF', 'uriList', { request: 'rdf', errors: [400, 415] }),
  op('get', '/feature/similarity', 'feature', 'The feature of similarity search values', 'resource', { schema: 'Feature' }),
  op('get', '/feature/{id}', 'feature', 'A feature', 'resource', { schema: 'Feature', errors: [404] }),
  op('put', '/feature/{id}', 'feature', 'Replace a feature', 'uriList', { request: 'rdf', query: FORCE, errors: [400, 404, 409, 415] }),
  op('delete', '/feature/{id}', 'feature', 'Delete a feature', 'empty', { query: FORCE, errors: [404, 409] }),

  op('get', '/model', 'model', 'List models', 'list', { query: PAGED }),
  op('get', '/model/{id}', 'model', 'A model: algorithm, training dataset, variables, parameters, cross-validation; or the model itself as ONNX', 'model', { schema: 'Model', errors: [404] }),
  op('get', '/model/{id}/qmrf', 'model', 'The model\'s QMRF 1.3 report (OECD principles), XML or a page', 'qmrf', { errors: [404] }),
  op('post', '/model/{id}', 'model', 'Predict a dataset or one compound', 'task', { request: 'form', fields: { dataset_uri: 'the dataset to predict', compound_uri: 'one compound to predict', dataset_service: 'a dataset service to post the predictions to', confidence_level: 'confidence level of the conformal interval or prediction set, in (0,1), default 0.9' }, async: true, errors: [400, 404, 429] }),
  op('delete', '/model/{id}', 'model', 'Delete a model', 'empty', { errors: [404] }),
  op('get', '/model/{id}/parameter/{n}', 'model', 'One parameter of a model', 'resource', { errors: [404] }),

  op('get', '/task', 'task', 'List tasks', 'list', { query: PAGED }),
  op('get', '/task/{id}', 'task', 'A task: 202 while it runs, 200/201 with its result, its error\'s status when it failed', 'task', { schema: 'Task', errors: [404] }),
  op('delete', '/task/{id}', 'task', 'Cancel a task', 'empty', { errors: [404] }),

  op('get', '/validation', 'validation', 'List validations', 'list', { query: PAGED }),
  op('post', '/validation/crossvalidation', 'validation', 'Cross-validate a learning algorithm', 'task', { request: 'form', fields: { ...LEARN_FIELDS, num_folds: 'folds (default 10)' }, async: true, errors: [400, 429] }),
  op('post', '/validation/training_test_split', 'validation', 'Validate on a random training/test split', 'task', { request: 'form', fields: { ...LEARN_FIELDS, split_ratio: 'share of the training set' }, async: true, errors: [400, 429] }),
  op('post', '/validation/test_set_validation', 'validation', 'Validate a model on an external test set', 'task', { request: 'form', fields: { model_uri: 'a model of this service', test_dataset_uri: 'the external test set', test_target_dataset_uri: 'the dataset holding the measured values, when not the test set', ...CONFIDENCE_FIELD }, async: true, errors: [400, 429] }),
  op('get', '/validation/report/algorithm_comparison', 'validation', 'Compare cross-validations (validation_uris in the query)', 'comparison', { query: ['validation_uris'], errors: [400] }),
  op('post', '/validation/report/algorithm_comparison', 'validation', 'Compare cross-validations', 'comparison', { request: 'form', fields: { validation_uris: 'two or more cross-validations (repeated or separated by spaces)' }, errors: [400] }),
  op('get', '/validation/{id}', 'validation', 'A validation with its statistics', 'resource', { schema: 'Validation', errors: [404] }),
  op('delete', '/validation/{id}', 'validation', 'Delete a validation', 'empty', { errors: [404] }),

  op('get', '/ontology', 'ontology', 'List loaded ontologies', 'list', { query: PAGED }),
  op('post', '/ontology', 'ontology', 'Load an ontology (RDF, or a form with a file and title)', 'uriList', { request: 'upload', query: ['title'], errors: [400, 413, 415] }),
  op('get', '/ontology/{id}', 'ontology', 'The triples of a loaded ontology', 'resource', { errors: [404] }),
  op('put', '/ontology/{id}', 'ontology', 'Replace a loaded ontology', 'uriList', { request: 'upload', errors: [400, 404, 415] }),
  op('delete', '/ontology/{id}', 'ontology', 'Unload an ontology', 'empty', { errors: [404] }),

  op('get', '/sparql', 'sparql', 'SPARQL 1.1 query (read-only), query in ?query=', 'sparql', { query: ['query'], errors: [400] }),
  op('post', '/sparql', 'sparql', 'SPARQL 1.1 query (read-only), application/sparql-query or a form', 'sparql', { request: 'sparql', errors: [400, 403, 415] }),

  ...['/auth', '/opensso/identity'].flatMap((prefix) => [
    op('post', `${prefix}/authenticate`, 'auth', 'Log in: username and password give a token', 'auth', { request: 'form', fields: { username: 'user name', password: 'password' }, errors: [401, 429], authOnly: true }),
    op('get', `${prefix}/isTokenValid`, 'auth', 'Whether a token (subjectid) is valid: "boolean=true"', 'auth', { errors: [401], authOnly: true }),
    op('post', `${prefix}/isTokenValid`, 'auth', 'Whether a token (subjectid) is valid: "boolean=true"', 'auth', { request: 'form', fields: { tokenid: 'the token' }, errors: [401], authOnly: true }),
    op('get', `${prefix}/attributes`, 'auth', 'The token\'s user and attributes', 'auth', { errors: [401], authOnly: true }),
    op('post', `${prefix}/attributes`, 'auth', 'The token\'s user and attributes', 'auth', { request: 'form', fields: { subjectid: 'the token' }, errors: [401], authOnly: true }),
    op('post', `${prefix}/logout`, 'auth', 'Log out: the token is revoked', 'auth', { request: 'form', fields: { subjectid: 'the token' }, errors: [401], authOnly: true }),
  ]),
  op('get', '/auth/grants', 'auth', 'Grants the caller gave or holds', 'list', { authOnly: true, errors: [401] }),
  op('post', '/auth/grants', 'auth', 'Grant a user or group access to a resource the caller owns', 'uriList', { request: 'form', fields: { resource: 'a resource the caller owns', grantee: 'a user, or group:NAME' }, authOnly: true, errors: [400, 401, 403] }),
  op('get', '/auth/grants/{id}', 'auth', 'A grant', 'resource', { authOnly: true, errors: [401, 404] }),
  op('delete', '/auth/grants/{id}', 'auth', 'Revoke a grant', 'empty', { authOnly: true, errors: [401, 404] }),
];
