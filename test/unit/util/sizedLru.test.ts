// The size-bounded LRU under the graph cache, the entry lists and the representation cache.
import { expect } from 'chai';
import { SizedLru } from '../../../src/util/sizedLru.ts';

describe('SizedLru', () => {
  const sized = (budget: number, largest?: number) => {
    const evicted: string[] = [];
    const lru = new SizedLru<string>(budget, (v) => v.length, { largest, onEvict: (key) => evicted.push(key) });
    return { lru, evicted };
  };

  it('evicts the least recently used first once the sizes pass the budget; get() makes a value recent, peek() does not', () => {
    const { lru, evicted } = sized(10);
    lru.set('a', 'aaa');
    lru.set('b', 'bbb');
    lru.set('c', 'ccc');
    expect(lru.get('a')).to.equal('aaa');
    expect(lru.peek('b')).to.equal('bbb');
    lru.set('d', 'ddd');
    expect(evicted).to.deep.equal(['b']);
    expect(lru.peek('b')).to.equal(undefined);
    expect(lru.size).to.equal(3);
  });

  it('grow() counts more for a held value and evicts for room; a key not held is ignored', () => {
    const { lru, evicted } = sized(10);
    lru.set('a', 'aaaa');
    lru.set('b', 'bbbb');
    lru.grow('b', 1);
    expect(evicted).to.deep.equal([]);
    lru.grow('b', 2);
    expect(evicted).to.deep.equal(['a']);
    lru.grow('gone', 100);
    expect(lru.peek('b')).to.equal('bbbb');
    // b now counts 7: c (4) fits only once b goes.
    lru.set('c', 'cccc');
    expect(evicted).to.deep.equal(['a', 'b']);
  });

  it('refuses a value larger than `largest`, and tells of deletes and replacements but not of clear()', () => {
    const { lru, evicted } = sized(100, 5);
    expect(lru.set('big', 'x'.repeat(6))).to.equal(false);
    expect(lru.peek('big')).to.equal(undefined);
    // A replacement too large to keep still takes the old value's place: nothing stale stays.
    lru.set('c', 'old');
    expect(lru.set('c', 'x'.repeat(6))).to.equal(false);
    expect(lru.peek('c')).to.equal(undefined);
    expect(lru.set('a', 'one')).to.equal(true);
    lru.set('a', 'two');
    lru.set('b', 'three');
    lru.delete('b');
    expect(evicted).to.deep.equal(['c', 'a', 'b']);
    lru.clear();
    expect(evicted).to.deep.equal(['c', 'a', 'b']);
    expect(lru.size).to.equal(0);
  });
});
