// The index's URI table: numbered keys kept as integers, any other key as a string, and
// every key found again by its slot and its slot by the key, across removal and compaction.
import { expect } from 'chai';
import { UriTable } from '../../../src/search/uriTable.ts';

describe('search URI table', () => {
  // Keys of every shape: numbered, numbered with leading zeros or past 2^32, none numbered.
  const keys = ['/compound/0', '/compound/7', '/compound/007', '/compound/0100', '/compound/00', 'a0', '9', '/compound/4294967295', '/compound/4294967296', '/compound/12345678901', 'http://other/compound/7', 'u:1', 'http://x/a', '', '7', '/compound/', 'ü/3'];

  it('answers each key by slot and each slot by key', () => {
    const t = new UriTable();
    const slots = keys.map((k) => t.push(k));
    expect(slots).to.deep.equal(keys.map((_, i) => i));
    expect(t.size).to.equal(keys.length);
    for (const [i, k] of keys.entries()) {
      expect(t.keyAt(i)).to.equal(k);
      expect(t.slotOf(k)).to.equal(i);
    }
    for (const k of ['/compound/1', '/compound/70', '/compound/07', 'u:2', 'http://other/compound/8']) expect(t.slotOf(k)).to.equal(undefined);
  });

  it('forgets removed keys, keeps the others through a compaction and many more keys', () => {
    const t = new UriTable();
    for (let i = 0; i < 5000; i++) t.push(i % 3 === 0 ? `u:${i}` : `/compound/${i}`);
    for (let i = 0; i < 5000; i += 2) t.clear(t.slotOf(i % 3 === 0 ? `u:${i}` : `/compound/${i}`)!);
    expect(t.size).to.equal(2500);
    expect(t.holds(2)).to.equal(false);
    expect(t.keyAt(2)).to.equal(undefined);
    expect(t.slotOf('/compound/2')).to.equal(undefined);
    expect(t.slotOf('/compound/1')).to.equal(1);
    const { table, renumbered } = t.compacted();
    expect(table.slots).to.equal(2500);
    expect(renumbered[2]).to.equal(-1);
    expect(renumbered[3]).to.equal(1);
    for (let i = 5000; i < 20_000; i++) table.push(`/compound/${i}`);
    for (let i = 1; i < 20_000; i += 2) {
      const k = i < 5000 && i % 3 === 0 ? `u:${i}` : `/compound/${i}`;
      expect(table.keyAt(table.slotOf(k)!)).to.equal(k);
    }
    expect(table.slotOf('/compound/4')).to.equal(undefined);
    expect(table.slotOf('/compound/6000')).to.equal(2500 + 1000);
  });

  it('keeps keys of prefixes past its room for prefixes as strings', () => {
    const t = new UriTable();
    for (let i = 0; i < 600; i++) t.push(`http://host${i}/compound/${i}`);
    for (let i = 0; i < 600; i++) expect(t.slotOf(`http://host${i}/compound/${i}`)).to.equal(i);
    expect(t.keyAt(599)).to.equal('http://host599/compound/599');
  });
});
