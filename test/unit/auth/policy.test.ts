import { expect } from 'chai';
import { pathAndAncestors, requirement, type Requirement } from '../../../src/auth/policy.ts';

describe('auth policy table', () => {
  const table: Array<[string, string, 'public' | 'authenticated' | 'owner', Requirement]> = [
    ['GET', '/compound/1', 'public', 'public'],
    ['HEAD', '/dataset', 'public', 'public'],
    ['GET', '/compound/1', 'authenticated', 'user'],
    ['GET', '/task', 'public', 'user'],
    ['GET', '/task/', 'public', 'user'],
    ['GET', '/task/abc', 'public', 'owner'],
    ['DELETE', '/task/abc', 'public', 'owner'],
    ['GET', '/sparql', 'public', 'public'],
    ['POST', '/sparql', 'public', 'public'],
    ['POST', '/sparql', 'authenticated', 'user'],
    ['POST', '/compound', 'public', 'owner'],
    ['PUT', '/compound/1', 'public', 'owner'],
    ['DELETE', '/compound/1/conformer/2', 'public', 'owner'],
    ['POST', '/algorithm/mlr', 'public', 'user'],
    ['POST', '/model/7', 'public', 'user'],
    ['PUT', '/model/7', 'public', 'owner'],
    ['POST', '/auth/authenticate', 'authenticated', 'public'],
    ['POST', '/opensso/identity/isTokenValid', 'authenticated', 'public'],
    ['GET', '/authority', 'public', 'public'],
    ['POST', '/authority', 'public', 'owner'],
    // AUTH_READ=owner: private resources need the owner's leave, the rest any user.
    ['GET', '/dataset/3', 'owner', 'reader'],
    ['HEAD', '/dataset/3/entry/1', 'owner', 'reader'],
    ['GET', '/model/7', 'owner', 'reader'],
    ['GET', '/validation/2', 'owner', 'reader'],
    ['GET', '/feature/9', 'owner', 'reader'],
    ['GET', '/dataset', 'owner', 'user'],
    ['GET', '/dataset/', 'owner', 'user'],
    ['GET', '/compound/1', 'owner', 'user'],
    ['GET', '/algorithm/mlr', 'owner', 'user'],
    ['GET', '/ontology', 'owner', 'user'],
    ['POST', '/sparql', 'owner', 'user'],
    ['GET', '/task/abc', 'owner', 'owner'],
    ['POST', '/model/7', 'owner', 'reader'],
    ['POST', '/algorithm/mlr', 'owner', 'user'],
    ['PUT', '/dataset/3', 'owner', 'owner'],
    ['DELETE', '/feature/9', 'owner', 'owner'],
    ['POST', '/auth/grants', 'owner', 'public'],
  ];
  for (const [method, path, read, need] of table) {
    it(`${method} ${path} with AUTH_READ=${read} needs ${need}`, () => {
      expect(requirement(method, path, { read })).to.equal(need);
    });
  }

  it('lists a path and its ancestors, nearest first', () => {
    expect(pathAndAncestors('/compound/1/conformer/2/')).to.deep.equal(['/compound/1/conformer/2', '/compound/1/conformer', '/compound/1', '/compound']);
    expect(pathAndAncestors('/')).to.deep.equal([]);
  });
});
