// The pieces of the pages that compute: ROC points, histogram bins, escaping and paging of
// depicted lists, against values worked out by hand.
import { expect } from 'chai';
import { rocCurve } from '../../src/pages/statistics.ts';
import { binCounts } from '../../src/pages/plots.ts';
import { html } from '../../src/pages/html.ts';
import { DEPICTED_PAGE, depictedPage } from '../../src/pages/paging.ts';

describe('pages: computed pieces', () => {
  it('rocCurve steps per distinct score, ties diagonally', () => {
    // Scores 0.9 (pos), 0.8 (neg), 0.8 (pos), 0.3 (neg): P = 2, N = 2.
    expect(rocCurve([true, false, true, false], [0.9, 0.8, 0.8, 0.3])).to.deep.equal([
      { fpr: 0, tpr: 0 }, { fpr: 0, tpr: 0.5 }, { fpr: 0.5, tpr: 1 }, { fpr: 1, tpr: 1 },
    ]);
    expect(rocCurve([true, true], [0.1, 0.2])).to.deep.equal([]);
  });

  it('binCounts: Sturges bins over [min, max], the maximum in the last bin', () => {
    // n = 5: ceil(log2 5 + 1) = 4 bins of width 0.5 over [1, 3].
    expect(binCounts([1, 2, 3, 3, 3])).to.deep.equal({ lo: 1, hi: 3, counts: [1, 0, 1, 3] });
    expect(binCounts([7, 7])).to.deep.equal({ lo: 7, hi: 7, counts: [2, 0] });
  });

  it('html escapes interpolated text, attributes included', () => {
    expect(html`<a title="${'"><script>'}">${'<b>&'}</a>`.text).to.equal('<a title="&quot;&gt;&lt;script&gt;">&lt;b&gt;&amp;</a>');
  });

  const uris = Array.from({ length: 120 }, (_, i) => `http://x/compound/${i + 1}`);
  const table: Array<[string, number, string | undefined]> = [
    ['http://x/compound', DEPICTED_PAGE, 'http://x/compound?page=1&amp;pagesize=50'],
    ['http://x/compound?pagesize=120', 120, undefined],
    ['http://x/compound?page=0', 120, undefined],
  ];
  for (const [url, shown, next] of table) {
    it(`depictedPage of ${url} shows ${shown}`, () => {
      const page = depictedPage(new URL(url), uris, {});
      expect(page.shown).to.have.length(shown);
      if (next) expect(page.nav.text).to.contain(`href="${next}"`);
      else expect(page.nav.text).to.equal('');
    });
  }
});
