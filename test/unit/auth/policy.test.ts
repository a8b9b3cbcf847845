import { expect } from 'chai';
import { pathAndAncestors, requirement, type Requirement } from '../../../src/auth/policy.ts';

describe('auth policy table', () => {
  const table: Array<[string, string, 'public' | 'authenticated', Requirement]> = [
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
