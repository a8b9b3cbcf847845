// Typed vocabularies (STYLE §6): handlers and domain code never spell IRIs out.
import { DataFactory, type NamedNode } from 'n3';

const { namedNode } = DataFactory;

/** A namespace whose listed local names are typed NamedNodes, with `ns()` for others. */
function vocabulary<const T extends readonly string[]>(base: string, names: T) {
  const terms = Object.fromEntries(names.map((n) => [n, namedNode(base + n)])) as { [K in T[number]]: NamedNode };
  return Object.assign(terms, { ns: base, term: (local: string): NamedNode => namedNode(base + local) });
}

/** OpenTox API ontology. The 1.2 interface keeps the 1.1 namespace (SPEC §9.3). */
export const OT_NS = 'http://www.opentox.org/api/1.1#';
/** Accepted on input as a synonym of OT_NS (DESIGN: conventions). */
export const OT_NS_12 = 'http://www.opentox.org/api/1.2#';

export const OT = vocabulary(OT_NS, [
  'Algorithm', 'Parameter', 'Compound', 'Conformer', 'Dataset', 'DataEntry', 'Feature',
  'NumericFeature', 'NominalFeature', 'StringFeature', 'FeatureValue', 'Model', 'Task',
  'ErrorReport', 'Ontology', 'Service',
  'isA', 'parameters', 'paramScope', 'paramValue', 'hasStatus', 'percentageCompleted',
  'resultURI', 'error', 'errorCode', 'actor', 'message', 'errorDetails', 'errorCause',
  'hasSource', 'units', 'acceptValue', 'dataEntry', 'compound', 'conformer', 'values', 'feature',
  'value', 'algorithm', 'trainingDataset', 'independentVariables', 'dependentVariables',
  'predictedVariables', 'statusCode', 'warning', 'owner',
  // Cross-validation statistics of a model, as the OpenTox validation service named them.
  'crossvalidationInfo', 'numFolds', 'randomSeed', 'numInstances', 'classificationStatistics',
  'regressionStatistics', 'percentCorrect', 'balancedAccuracy', 'areaUnderRoc', 'confusionMatrix',
  'confusionMatrixCell', 'confusionMatrixActual', 'confusionMatrixPredicted', 'confusionMatrixValue',
  'rSquare', 'rootMeanSquaredError', 'meanAbsoluteError',
  // Validation resources (/validation): terms of the OpenTox validation service, and the
  // few it lacked (documented in docs/validation.md).
  'Validation', 'Crossvalidation', 'validationType', 'model', 'dataset', 'testDataset', 'testTargetDataset',
  'predictionFeature', 'crossvalidation', 'crossvalidationFold', 'stratified', 'splitRatio',
  'numUnpredicted', 'numWithoutClass', 'truePositiveRate', 'trueNegativeRate',
  'matthewsCorrelationCoefficient', 'qSquare', 'prediction', 'actualValue', 'predictedValue',
  'positiveClassScore', 'confidence', 'inApplicabilityDomain', 'shareInsideDomain',
  'insideDomainStatistics', 'outsideDomainStatistics',
  // Conformal prediction (this service's terms, ontology/opentox.ttl, docs/models.md).
  'conformalVariables', 'conformalPredictor', 'conformalMethod', 'nonconformityMeasure', 'mondrian',
  'calibrationSize', 'lowerBoundVariable', 'upperBoundVariable', 'pValueVariable', 'predictionSetVariable',
  'pValueClass', 'pValue', 'classPValue', 'lowerBound', 'upperBound', 'predictionSetMember',
  'confidenceLevel', 'empiricalCoverage', 'medianIntervalWidth', 'meanPredictionSetSize',
] as const);

export const DC = vocabulary('http://purl.org/dc/elements/1.1/', [
  'identifier', 'title', 'description', 'creator', 'contributor', 'date', 'source', 'type',
] as const);

export const RDF = vocabulary('http://www.w3.org/1999/02/22-rdf-syntax-ns#', ['type', 'first', 'rest', 'nil'] as const);
export const RDFS = vocabulary('http://www.w3.org/2000/01/rdf-schema#', [
  'Class', 'subClassOf', 'label', 'comment', 'seeAlso', 'domain', 'range',
] as const);
export const OWL = vocabulary('http://www.w3.org/2002/07/owl#', [
  'Class', 'Ontology', 'sameAs', 'ObjectProperty', 'DatatypeProperty', 'AnnotationProperty', 'Thing',
  'NamedIndividual', 'imports', 'versionInfo',
] as const);
export const XSD = vocabulary('http://www.w3.org/2001/XMLSchema#', [
  'string', 'boolean', 'int', 'integer', 'long', 'float', 'double', 'decimal', 'dateTime', 'anyURI',
] as const);

/** Algorithm types ontology (SPEC §2.1). */
export const ATYPE = vocabulary('http://www.opentox.org/algorithmTypes.owl#', [
  'AlgorithmType', 'DataCleanup', 'FeatureSelection', 'Supervised', 'Unsupervised', 'DescriptorCalculation',
  'PatternMining', 'Classification', 'Regression', 'EagerLearning', 'LazyLearning', 'SingleTarget',
  'MultipleTargets', 'PhysicoChemical', 'Topological', 'Normalization', 'Generation3D',
  'ApplicabilityDomain', 'Clustering', 'Structural', 'Electronic', 'Geometrical', 'Constitutional',
  'QuantumChemical', 'Preprocessing', 'Learning', 'Rules', 'DataMining',
  'SimilarityDistance',
] as const);

/** Error codes (SPEC §7.2): each an owl:Class with an HTTP status and a description. */
export const ERR = vocabulary('http://www.opentox.org/errors.owl#', [
  'ErrorCode', 'BadRequest', 'NotFound', 'MethodNotAllowed', 'NotAcceptable', 'UnsupportedMediaType',
  'PayloadTooLarge', 'Unauthorized', 'Forbidden', 'Conflict', 'TooManyRequests', 'InternalServerError',
  'BadGateway', 'ServiceUnavailable', 'GatewayTimeout', 'InsufficientStorage',
  'BadRDFContent', 'ImproperRDFRepresentation', 'NotAFeatureRepresentation', 'NotADatasetRepresentation',
  'RDFSyntaxError', 'InvalidIRI', 'InvalidParameter', 'MissingParameter', 'PredictionFeatureNotInDataset',
  'CannotGeneratePredictrionFeature', 'InvalidStructure', 'UnsupportedFormat', 'SparqlSyntaxError',
  'SparqlUpdateForbidden', 'QueryTimeout', 'TaskNotFound', 'InvalidTaskId', 'ServerOverload',
  'TaskInterrupted', 'TaskFailed', 'RemoteServiceError', 'ParameterisedAlgorithm', 'InvalidToken',
  'InvalidCredentials', 'InvalidSmarts',
  'NoStructureColumn', 'FeatureNotInDataset', 'NotAModelRepresentation',
  'ResourceInUse',
  'LimitExceeded', 'JobQuotaExceeded', 'RemoteURIRefused',
  'EntityExpansionLimit',
  'UnsupportedContentCoding', 'RequestTimeout', 'URITooLong', 'HeaderFieldsTooLarge',
] as const);

/** VoID, for the triple counts of listed ontology graphs. */
export const VOID = vocabulary('http://rdfs.org/ns/void#', ['triples'] as const);

/**
 * The job engine's private task fields (a Queued task must be runnable after a
 * restart). Never served: src/tasks/tasks.ts strips this namespace from every task answer.
 */
export const JOB = vocabulary('urn:opentox-service:job#', ['kind', 'params', 'owner', 'idempotent', 'ended'] as const);

/**
 * Compound identity as schema.org writes it (https://schema.org/MolecularEntity: smiles,
 * inChI, inChIKey, molecularFormula, molecularWeight); the OpenTox ontology names these
 * only as classes (ot:SMILES, ot:InChI ...), not as properties. docs/graph-layout.md.
 */
export const SCHEMA = vocabulary('http://schema.org/', ['smiles', 'inChI', 'inChIKey', 'molecularFormula', 'molecularWeight'] as const);

/**
 * The service's own bookkeeping terms (structure files kept beside the triples, ordinal
 * numbers, 3D flag), listed in docs/graph-layout.md. The identity terms here are the
 * names data written before the schema.org terms used: still read, no longer written.
 */
export const SVC = vocabulary('urn:opentox-service:', [
  'smiles', 'inchi', 'inchiKey', 'formula', 'molecularWeight', 'structureFile', 'number', 'is3D',
  'Grant', 'grantOn', 'grantee', 'grantor',
] as const);

/** Where the service's own ontology is served (ontology/service.ttl, a built-in of src/ontology). */
export const OWN_ONTOLOGY_PATH = '/ontology/service';

const OWN_TERMS = [
  'NeighbourOutput', 'Neighbour', 'neighbourOutput', 'neighbourCount', 'similarityMeasure', 'neighbour',
  'neighbourOf', 'rank', 'trainingCompound', 'similarity', 'measuredValue',
  'task', 'taskReason', 'targetMatch', 'warnings', 'droppedRows', 'emptiedCells', 'inputs',
] as const;

const ownByBase = new Map<string, ReturnType<typeof vocabulary<typeof OWN_TERMS>>>();

/**
 * Terms of the service's own ontology: `{base}/ontology/service#name`, so each one
 * dereferences to its definition (unlike the private `urn:` terms of SVC and JOB).
 */
export function ownTerms(baseUrl: string): OwnTerms {
  let v = ownByBase.get(baseUrl);
  if (!v) ownByBase.set(baseUrl, (v = vocabulary(`${baseUrl}${OWN_ONTOLOGY_PATH}#`, OWN_TERMS)));
  return v;
}
export type OwnTerms = ReturnType<typeof vocabulary<typeof OWN_TERMS>>;

/** Blue Obelisk descriptor ontology, for owl:sameAs of descriptor algorithms. */
export const BO_NS = 'http://www.blueobelisk.org/ontologies/chemoinformatics-algorithms/#';

/** Prefixes every RDF serialiser writes (readable prefixes). */
export const PREFIXES: Record<string, string> = {
  ot: OT_NS,
  dc: DC.ns,
  rdf: RDF.ns,
  rdfs: RDFS.ns,
  owl: OWL.ns,
  xsd: XSD.ns,
  ota: ATYPE.ns,
  oterr: ERR.ns,
};
