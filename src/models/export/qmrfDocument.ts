// A model's QMRF 1.3 document (the JRC's (Q)SAR Model Reporting Format, qmrf-1.3.xsd) as
// an XML tree, filled from QmrfFacts. Every IDREF names an entry of the catalogs written
// with it; what the service cannot know is TO_COMPLETE.
import { QMRF_SECTIONS } from './qmrfChapters.ts';
import type { QmrfFacts, ValidationFact } from './qmrfFacts.ts';
import { domainOf, equationOf, ownCrossvalidation, TO_COMPLETE, validationText } from './qmrfText.ts';
import { packageVersion, serviceSoftware } from './software.ts';
import { el, type XmlChild, type XmlElement } from './xmlTree.ts';

/** An element of the schema with its chapter number and name, and its content. */
function s(name: string, ...children: Array<XmlChild | undefined | false>): XmlElement {
  return sa(name, {}, ...children);
}
function sa(name: string, attrs: Record<string, string | undefined>, ...children: Array<XmlChild | undefined | false>): XmlElement {
  const [chapter, title] = QMRF_SECTIONS[name] ?? [];
  return el(name, { chapter, name: title, ...attrs }, ...children);
}
const CATALOG = { software: 'software_catalog', algorithm: 'algorithms_catalog', descriptor: 'descriptors_catalog', endpoint: 'endpoints_catalog', author: 'authors_catalog', publication: 'publications_catalog' } as const;
const ref = (kind: keyof typeof CATALOG, idref: string) => el(`${kind}_ref`, { idref, catalog: CATALOG[kind] });
const lines = (...parts: Array<string | undefined | false>) => parts.filter(Boolean).join('\n');

/** Publications of the methods (facts of the literature). */
const PUBLICATIONS: Record<string, { title: string; url: string }> = {
  randomForest: { title: 'Breiman L. (2001) Random Forests. Machine Learning 45, 5-32', url: 'https://doi.org/10.1023/A:1010933404324' },
  knn: { title: 'Cover T., Hart P. (1967) Nearest neighbor pattern classification. IEEE Transactions on Information Theory 13, 21-27', url: 'https://doi.org/10.1109/TIT.1967.1053964' },
  logisticRegression: { title: 'Cox D.R. (1958) The regression analysis of binary sequences. Journal of the Royal Statistical Society B 20, 215-242', url: 'https://doi.org/10.1111/j.2517-6161.1958.tb00292.x' },
  morgan: { title: 'Rogers D., Hahn M. (2010) Extended-connectivity fingerprints. Journal of Chemical Information and Modeling 50, 742-754', url: 'https://doi.org/10.1021/ci100050t' },
};

const STRUCTURES = { chemname: 'No', cas: 'No', smiles: 'Yes', inchi: 'No', mol: 'No', formula: 'No' };

function predictivity(v: ValidationFact | undefined): XmlElement {
  return s('QSAR_Predictivity',
    sa('validation_set_availability', { answer: v ? 'Yes' : 'No' }, v ? `Test dataset ${v.dataset ?? '(not recorded)'}` : `No external validation of this model is stored in the service. ${TO_COMPLETE}`),
    sa('validation_set_data', STRUCTURES, v ? 'Structures as SMILES (and every format of the compound resources) at the test dataset URI.' : TO_COMPLETE),
    sa('validation_set_descriptors', { answer: v ? 'All' : 'Unknown' }, v ? 'Computed from the structures as for the training set (chapter 4.5), or read from the test dataset.' : TO_COMPLETE),
    sa('validation_dependent_var_availability', { answer: v ? 'All' : 'Unknown' }, v ? 'Measured values in the test dataset (or its target dataset).' : TO_COMPLETE),
    s('validation_other_info', TO_COMPLETE),
    s('experimental_design', TO_COMPLETE),
    s('validation_predictivity', v ? validationText(v) : TO_COMPLETE),
    s('validation_assessment', TO_COMPLETE),
    s('validation_comments', TO_COMPLETE),
  );
}

export function qmrfDocument(f: QmrfFacts, base: string, today = new Date()): XmlElement {
  const m = f.model;
  const own = serviceSoftware();
  const rep = m?.representation;
  const usesRdkit = rep?.kind === 'morgan' || rep?.kind === 'descriptors';
  const target = f.endpoint?.title ?? TO_COMPLETE;
  const vs = f.validations;
  const onTraining = vs.filter((v) => v.type === 'test_set_validation' && v.dataset === f.training.uri);
  const external = vs.filter((v) => v.type === 'test_set_validation' && v.dataset !== f.training.uri);
  const crossval = vs.filter((v) => v.type === 'crossvalidation');
  const size = m?.trainingSize;
  const loo = crossval.filter((v) => size !== undefined && v.folds !== undefined && v.folds >= size);
  const lmo = crossval.filter((v) => !loo.includes(v));
  const domain = domainOf(m, base);
  const publication = m ? PUBLICATIONS[m.learner] : undefined;
  const params = f.algorithm.params.map((p) => `${p.name}=${p.value}`).join(', ');
  const date = today.toISOString().slice(0, 10);
  const software = [
    el('software', { id: 'software_service', name: own.name, number: 1, version: own.version, url: base, description: own.description }),
    usesRdkit && el('software', { id: 'software_rdkit', name: 'RDKit (@rdkit/rdkit, WebAssembly)', number: 2, version: packageVersion('@rdkit/rdkit'), url: 'https://www.rdkit.org', description: 'Open-source cheminformatics toolkit: structures, fingerprints and descriptors' }),
  ];
  const descriptorRefs = f.descriptors.map((_, i) => ref('descriptor', `descriptor_${i + 1}`));
  const chapters = el('QMRF_chapters', {},
    s('QSAR_identifier',
      s('QSAR_title', `${f.info.title} (${f.info.uri})`),
      s('QSAR_models', TO_COMPLETE),
      s('QSAR_software', ref('software', 'software_service'))),
    s('QSAR_General_information',
      s('qmrf_date', date),
      s('qmrf_authors', ref('author', 'author_qmrf')),
      s('qmrf_date_revision', TO_COMPLETE),
      s('qmrf_revision', TO_COMPLETE),
      s('model_authors', ref('author', 'author_model')),
      s('model_date', f.date ?? TO_COMPLETE),
      s('references', ...(publication ? [ref('publication', 'publication_method')] : [])),
      s('info_availability', `The model is public at ${f.info.uri}: its description in RDF, its learned state as ONNX (Accept: application/onnx) where the learner has an ONNX form, and predictions by POST ${f.info.uri} with dataset_uri or compound_uri.`),
      s('related_models', TO_COMPLETE)),
    s('QSAR_Endpoint',
      s('model_species', TO_COMPLETE),
      s('model_endpoint', ...(f.endpoint ? [ref('endpoint', 'endpoint_1')] : [])),
      s('endpoint_comments', lines(f.endpoint && `Feature ${f.endpoint.uri} of the training dataset.`, m?.task === 'classification' && `Classes: ${m.classes.join(', ')}.`, TO_COMPLETE)),
      s('endpoint_units', f.endpoint?.units ?? (m?.task === 'classification' ? 'Classes (no units)' : TO_COMPLETE)),
      s('endpoint_variable', target),
      s('endpoint_protocol', TO_COMPLETE),
      s('endpoint_data_quality', TO_COMPLETE)),
    s('QSAR_Algorithm',
      s('algorithm_type', lines(`${m?.task === 'classification' ? 'Classification' : m?.task === 'regression' ? 'Regression' : 'Model'}: ${f.algorithm.title}.`)),
      s('algorithm_explicit', ref('algorithm', 'algorithm_model'), el('equation', {}, equationOf(m, target))),
      s('algorithms_descriptors', ...descriptorRefs),
      s('descriptors_selection', rep?.kind === 'features' ? 'All numeric features of the training dataset besides the endpoint (representation=features); no selection by the learner.' : 'No selection: every descriptor of the representation is used.'),
      s('descriptors_generation', rep?.kind === 'morgan' ? `Morgan fingerprints computed by RDKit from the structures (radius ${rep.radius}, ${rep.bits} bits).` : rep?.kind === 'descriptors' ? `${f.descriptors.length} RDKit descriptors computed from the structures.` : 'Values of the training dataset\'s features; features computed by an algorithm of this service name it as their source (chapter 4.3) and are computed again for datasets that lack them.'),
      sa('descriptors_generation_software', { options: rep?.kind === 'morgan' ? `radius=${rep.radius}, bits=${rep.bits}` : undefined }, ref('software', usesRdkit ? 'software_rdkit' : 'software_service')),
      s('descriptors_chemicals_ratio', size !== undefined && f.descriptors.length ? `${size} chemicals / ${rep?.kind === 'morgan' ? rep.bits : f.descriptors.length} descriptors = ${(size / (rep?.kind === 'morgan' ? rep.bits : f.descriptors.length)).toFixed(2)}` : TO_COMPLETE)),
    s('QSAR_Applicability_domain',
      s('app_domain_description', domain.description),
      s('app_domain_method', domain.method),
      s('app_domain_software', ref('software', 'software_service')),
      s('applicability_limits', domain.limits)),
    s('QSAR_Robustness',
      sa('training_set_availability', { answer: 'Yes' }, `${f.training.title ? `${f.training.title}: ` : ''}${f.training.uri}`),
      sa('training_set_data', STRUCTURES, 'Structures as SMILES (and every format of the compound resources) at the training dataset URI.'),
      sa('training_set_descriptors', { answer: rep?.kind === 'features' ? 'All' : 'No' }, rep?.kind === 'features' ? 'The descriptor values are features of the training dataset.' : 'Computed from the structures when needed (chapter 4.5), not stored.'),
      sa('dependent_var_availability', { answer: 'All' }, `${f.endpoint?.uri ?? 'The endpoint'} in the training dataset.`),
      s('other_info', lines(size !== undefined && `${size} compounds with a structure and a value of the endpoint were used.`, TO_COMPLETE)),
      s('preprocessing', m ? lines('Rows without a value of the endpoint or without a usable structure are left out; a missing descriptor value is replaced by its training mean.', (m.learner === 'logisticRegression' || m.learner === 'knn') && 'Numeric descriptors are standardised by their training mean and standard deviation.') : TO_COMPLETE),
      s('goodness_of_fit', onTraining.length ? onTraining.map(validationText).join('\n') : `No figures on the training set itself are stored. ${TO_COMPLETE}`),
      s('loo', loo.length ? loo.map(validationText).join('\n') : 'No leave-one-out cross-validation of this model is stored.'),
      s('lmo', lines(m && ownCrossvalidation(m), ...lmo.map(validationText)) || 'No cross-validation of this model is stored.'),
      s('yscrambling', 'Not performed by the service.'),
      s('bootstrap', 'Not performed by the service.'),
      s('other_statistics', vs.filter((v) => v.type === 'training_test_split').map(validationText).join('\n') || 'None stored.')),
    ...(external.length ? external.map(predictivity) : [predictivity(undefined)]),
    s('QSAR_Interpretation', s('mechanistic_basis', TO_COMPLETE), s('mechanistic_basis_comments', TO_COMPLETE), s('mechanistic_basis_info', TO_COMPLETE)),
    s('QSAR_Miscelaneous',
      s('comments', `Generated on ${date} by ${own.name} ${own.version} from ${f.info.uri}; the parts marked ${TO_COMPLETE} need the model's author.`),
      s('bibliography', ...(rep?.kind === 'morgan' ? [ref('publication', 'publication_morgan')] : [])),
      s('attachments',
        s('attachment_training_data', el('molecules', { embedded: 'No', url: f.training.uri, filetype: 'text/csv', description: 'Training dataset (also as RDF and SDF at the same URI)' })),
        s('attachment_validation_data', ...external.flatMap((v) => (v.dataset ? [el('molecules', { embedded: 'No', url: v.dataset, filetype: 'text/csv', description: `Test dataset of ${v.uri}` })] : []))),
        s('attachment_documents', el('document', { embedded: 'No', url: f.info.uri, filetype: 'application/rdf+xml', description: 'The model resource' })))),
    s('QMRF_Summary', s('QMRF_number', TO_COMPLETE), s('date_publication', TO_COMPLETE), s('keywords', [target, f.algorithm.title, 'OpenTox'].join('; ')), s('summary_comments', TO_COMPLETE)),
  );
  const catalogs = el('Catalogs', {},
    el('software_catalog', {}, ...software),
    el('algorithms_catalog', {}, el('algorithm', { id: 'algorithm_model', definition: f.algorithm.title, description: lines(f.algorithm.description, params && `Parameters: ${params}.`), publication_ref: publication ? 'publication_method' : undefined })),
    el('descriptors_catalog', {}, ...f.descriptors.map((d, i) => el('descriptor', { id: `descriptor_${i + 1}`, name: d.name, units: d.units ?? 'dimensionless', description: d.description, publication_ref: rep?.kind === 'morgan' ? 'publication_morgan' : undefined }))),
    el('endpoints_catalog', {}, f.endpoint && el('endpoint', { id: 'endpoint_1', name: f.endpoint.title, group: TO_COMPLETE })),
    el('publications_catalog', {},
      publication && el('publication', { id: 'publication_method', title: publication.title, url: publication.url }),
      rep?.kind === 'morgan' && el('publication', { id: 'publication_morgan', title: PUBLICATIONS.morgan!.title, url: PUBLICATIONS.morgan!.url })),
    el('authors_catalog', {},
      el('author', { id: 'author_model', name: f.info.creator ?? TO_COMPLETE, number: 1, affiliation: TO_COMPLETE, contact: TO_COMPLETE, email: TO_COMPLETE }),
      el('author', { id: 'author_qmrf', name: TO_COMPLETE, number: 2, affiliation: TO_COMPLETE, contact: TO_COMPLETE, email: TO_COMPLETE })),
  );
  return el('QMRF', { version: '1.3', schema_version: '1.0', name: '(Q)SAR Model Reporting Format' }, chapters, catalogs);
}
