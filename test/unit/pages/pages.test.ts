// The pieces of the pages that compute: ROC points, histogram bins, escaping and paging of
// depicted lists, against values worked out by hand.
import { expect } from 'chai';
import { rocCurve } from '../../../src/pages/statistics.ts';
import { binCounts, foldSpread, pairedFolds, residuals } from '../../../src/pages/plots.ts';
import { html } from '../../../src/pages/html.ts';
import { DEPICTED_PAGE, depictedPage } from '../../../src/pages/paging.ts';

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

  // The plot area is x 50..308 (width 258), y 12..184 (height 172): plots.ts PAD, W and H.
  const near = (got: number[], want: number[]) => {
    expect(got).to.have.length(want.length);
    got.forEach((v, i) => expect(v, `coordinate ${i}`).to.be.closeTo(want[i]!, 1e-9));
  };
  const circles = (svg: string) => [...svg.matchAll(/<circle class="point" cx="([^"]+)" cy="([^"]+)"/g)].map((m): [number, number] => [Number(m[1]), Number(m[2])]);

  it('residuals: observed − predicted against predicted, symmetric about the zero line', () => {
    // Residuals 2, −1, 0 (largest 2, so the y axis is −2..2); predicted 1..4 on the x axis.
    const svg = residuals([{ observed: 3, predicted: 1, label: 'a' }, { observed: 1, predicted: 2, label: 'b' }, { observed: 4, predicted: 4, label: 'c' }], 'y').text;
    near(circles(svg).flat(), [50, 12, 50 + 258 / 3, 12 + 172 * 3 / 4, 308, 98]);
    expect(svg).to.contain('<line class="zero" x1="50" y1="98" x2="308" y2="98"').and.contain('<title>b: predicted 2, residual -1</title>');
  });

  it('foldSpread: a dot per finite fold figure, the pooled figure as a bar', () => {
    // y axis 0.5..0.9 over folds and pooled; NaN (a fold with one class) gets no dot.
    const svg = foldSpread([{ label: 'AUC', folds: [0.5, 0.9, NaN], pooled: 0.7 }], 'AUC').text;
    near(circles(svg).map(([, y]) => y), [184, 12]);
    const bar = /<line class="pooled" x1="([^"]+)" y1="([^"]+)" x2="([^"]+)" y2="([^"]+)"/.exec(svg)!.slice(1).map(Number);
    near(bar, [50 + 25.8, 98, 50 + 232.2, 98]);
  });

  it('pairedFolds: a line per fold through each learner\'s figure', () => {
    const svg = pairedFolds([{ label: 'knn', folds: [0.6, 0.8] }, { label: 'forest', folds: [0.7, 0.6] }], 'accuracy').text;
    // Columns at 50 + 64.5 and 50 + 193.5; y axis 0.6..0.8.
    const lines = [...svg.matchAll(/<polyline class="fold" points="([^"]+)"/g)].map((m) => m[1]!.split(/[ ,]/).map(Number));
    expect(lines).to.have.length(2);
    near(lines[0]!, [114.5, 184, 243.5, 98]);
    near(lines[1]!, [114.5, 12, 243.5, 184]);
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
