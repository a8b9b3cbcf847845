// JSON Schemas (2020-12, the dialect of OpenAPI 3.1) of the application/json answers:
// compact JSON-LD under /context.jsonld as src/rdf/plainJson.ts writes it. Tests validate
// real answers against them.
import { ERR } from '../rdf/vocab.ts';

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const arrayOf = (items: Schema, more: Schema = {}): Schema => ({ type: 'array', items, ...more });
const oneOrMany = (items: Schema): Schema => ({ anyOf: [items, arrayOf(items)] });
/** `type` holds this class (among others). */
const typed = (...classes: string[]): Schema => ({
  type: 'array', items: { type: 'string' }, minItems: 1,
  ...(classes.length === 1 ? { contains: { const: classes[0] } } : { contains: { enum: classes } }),
});
/** A top-level answer: the resource itself, with the context it is read under. */
const documentOf = (required: string[], properties: Schema, description: string): Schema => ({
  type: 'object', description, required: ['@context', ...required],
  properties: { '@context': ref('Context'), id: ref('Iri'), included: arrayOf(ref('Node')), ...properties },
});

export const SCHEMAS: Record<string, Schema> = {
  Context: { type: 'string', format: 'uri', description: 'The published context, /context.jsonld' },
  Iri: { type: 'string', minLength: 1, description: 'An absolute IRI, or _:label for a blank node referenced more than once' },
  Ref: { type: 'object', required: ['id'], properties: { id: ref('Iri') }, description: 'A reference; more keys when the node is described here' },
  Literal: {
    description: 'A value: strings, numbers and booleans as JSON; other datatypes and language strings as JSON-LD value objects',
    anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'object', required: ['@value'], properties: { '@value': {}, '@type': { type: 'string' }, '@language': { type: 'string' } } }],
  },
  Node: { type: 'object', properties: { id: ref('Iri'), type: { type: 'array', items: { type: 'string' } } }, description: 'Any node object' },
  FeatureValue: {
    type: 'object', required: ['feature', 'value'],
    properties: { type: typed('FeatureValue'), feature: ref('Ref'), value: ref('Literal') },
  },
  DataEntry: {
    type: 'object', required: ['compound'],
    properties: { id: ref('Iri'), type: typed('DataEntry'), compound: ref('Ref'), values: arrayOf(ref('FeatureValue')) },
  },
  Dataset: documentOf(['id', 'type'], { type: typed('Dataset'), title: ref('Literal'), dataEntry: arrayOf(ref('DataEntry')) }, 'A dataset: its metadata, entries (compound and feature values) and, under included, its features'),
  DataEntryDocument: documentOf([], { type: typed('DataEntry'), compound: ref('Ref'), values: arrayOf(ref('FeatureValue')), dataEntry: arrayOf(ref('DataEntry')) }, 'One entry of a dataset'),
  Compound: documentOf(['id', 'type'], { type: typed('Compound', 'Conformer') }, 'A compound (or conformer); its identifiers as feature values under included'),
  Feature: documentOf(['id', 'type', 'title'], { type: typed('Feature'), title: { type: 'string' }, units: ref('Literal'), hasSource: oneOrMany(ref('Ref')), sameAs: arrayOf(ref('Ref')) }, 'A feature'),
  Parameter: {
    type: 'object', required: ['title'],
    properties: { id: ref('Iri'), type: typed('Parameter'), title: { type: 'string' }, description: { type: 'string' }, paramScope: { enum: ['mandatory', 'optional'] }, paramValue: ref('Literal') },
  },
  Algorithm: documentOf(['id', 'type', 'title'], {
    type: typed('Algorithm'), title: { type: 'string' }, description: { type: 'string' }, isA: arrayOf(ref('Ref')), parameters: arrayOf(ref('Parameter')),
  }, 'An algorithm and its parameters (default values; exact values for a parameterised one)'),
  Model: documentOf(['id', 'type', 'algorithm'], {
    type: typed('Model'), algorithm: ref('Ref'), trainingDataset: ref('Ref'), independentVariables: arrayOf(ref('Ref')),
    dependentVariables: arrayOf(ref('Ref')), predictedVariables: arrayOf(ref('Ref')), parameters: arrayOf(ref('Parameter')),
  }, 'A model: its algorithm, training dataset, variables and parameters'),
  Task: documentOf(['id', 'type', 'hasStatus'], {
    type: typed('Task'), hasStatus: { enum: ['Queued', 'Running', 'Completed', 'Cancelled', 'Error'] },
    percentageCompleted: { type: 'number', minimum: 0, maximum: 100 }, resultURI: oneOrMany({ type: 'string', format: 'uri' }), error: ref('ErrorNode'),
  }, 'A task of an asynchronous job (SPEC §4.3)'),
  Validation: documentOf(['id', 'type'], { type: typed('Validation', 'Crossvalidation'), model: oneOrMany(ref('Ref')), dataset: oneOrMany(ref('Ref')) }, 'A validation with its statistics (a cross-validation names each fold\'s model)'),
  ErrorNode: {
    type: 'object', required: ['type', 'errorCode', 'statusCode', 'message'],
    properties: {
      type: typed('ErrorReport'),
      errorCode: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: `^${ERR.ns.replace(/\./g, '\\.')}` } } },
      statusCode: { type: 'integer', minimum: 400, maximum: 599 }, message: { type: 'string' }, actor: ref('Ref'), errorDetails: { type: 'string' },
      errorCause: arrayOf(ref('ErrorNode')),
    },
  },
  // The report's own code is one of ours; a cause may carry a remote service's (SPEC §7.2).
  ErrorReport: {
    allOf: [ref('ErrorNode'), { type: 'object', required: ['@context'], properties: { '@context': ref('Context'), errorCode: { type: 'object', properties: { id: ref('ErrorCode') } } } }],
    description: 'ot:ErrorReport (SPEC §7.2): the HTTP status, an error code of the error ontology, a message, the actor, details and causes',
  },
  ErrorCode: { enum: Object.keys(ERR).filter((k) => /^[A-Z]/.test(k) && k !== 'ErrorCode').map((k) => ERR.ns + k), description: 'The error codes of the error ontology (/ontology, errors.owl)' },
  Service: documentOf(['id', 'type'], { type: typed('Service'), seeAlso: arrayOf(ref('Ref')) }, 'The service and its collections'),
  List: {
    type: 'object', required: ['@context', '@graph'], description: 'Several resources: the triples of a list',
    properties: { '@context': ref('Context'), '@graph': arrayOf(ref('Node')) },
  },
  UriList: { type: 'string', pattern: '^(\\S+\\r\\n)*$', description: 'text/uri-list (RFC 2483): one URI per CRLF-terminated line' },
};
