import { expect } from 'chai';
import { loadConfig } from '../../../src/config.ts';
import { HttpError } from '../../../src/errors.ts';
import { datasetRef, readDatasetRef } from '../../../src/algorithms/datasetIO.ts';

const config = loadConfig([], {}, { baseUrl: 'http://service.example.org' });

describe('dataset_uri read once into a DatasetRef', () => {
  it('splits the dataset from its feature_uris[] and knows a dataset of this service', () => {
    const ref = readDatasetRef(config, 'http://service.example.org/dataset/7?feature_uris[]=http://service.example.org/feature/1&feature_uris[]=http://service.example.org/feature/2');
    expect(ref.base).to.equal('http://service.example.org/dataset/7');
    expect(ref.local).to.equal(true);
    expect(ref.featureUris).to.deep.equal(['http://service.example.org/feature/1', 'http://service.example.org/feature/2']);
    // Brackets percent-encoded (SPEC §1 rule 2), so the URI can be a stored IRI.
    expect(ref.uri).to.equal('http://service.example.org/dataset/7?feature_uris%5B%5D=http://service.example.org/feature/1&feature_uris%5B%5D=http://service.example.org/feature/2');
  });

  it('a dataset elsewhere is not local and has no feature restriction', () => {
    const ref = datasetRef(config, 'https://other.example.org/dataset/7');
    expect(ref).to.deep.equal({ uri: 'https://other.example.org/dataset/7', base: 'https://other.example.org/dataset/7', local: false });
  });

  for (const [sent, code] of [['ftp://service.example.org/dataset/7', 'InvalidIRI'], ['not a uri', 'InvalidIRI']] as const) {
    it(`refuses ${sent} with 400 ${code}, naming the field`, () => {
      let error: unknown;
      try {
        readDatasetRef(config, sent, 'test_dataset_uri');
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(HttpError);
      expect((error as HttpError).status).to.equal(400);
      expect((error as HttpError).code.value).to.contain(code);
      expect((error as HttpError).message).to.contain('test_dataset_uri');
    });
  }
});
