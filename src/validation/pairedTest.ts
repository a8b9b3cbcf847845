// Paired Student t-test of two learners' figures on the same folds (Dietterich 1998 warns
// that folds share training data, so the p-value is a guide rather than exact). The
// two-sided p-value is the regularised incomplete beta I_{df/(df+t²)}(df/2, 1/2),
// evaluated by its continued fraction (Numerical Recipes §6.4).

export interface PairedTest {
  /** Folds with a finite figure for both learners. */
  n: number;
  meanDifference: number;
  t: number;
  df: number;
  p: number;
}

export function pairedTTest(a: readonly number[], b: readonly number[]): PairedTest {
  // A fold without a figure on either side (a hole, or b shorter) is left out, as NaN is.
  const d = a.flatMap((x, i) => {
    const y = b[i];
    return y === undefined ? [] : [x - y];
  }).filter(Number.isFinite);
  const n = d.length;
  const mean = d.reduce((s, x) => s + x, 0) / n;
  const df = n - 1;
  if (n < 2) return { n, meanDifference: n ? mean : NaN, t: NaN, df, p: NaN };
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / df);
  if (sd === 0) return { n, meanDifference: mean, t: mean === 0 ? 0 : Math.sign(mean) * Infinity, df, p: mean === 0 ? 1 : 0 };
  const t = mean / (sd / Math.sqrt(n));
  return { n, meanDifference: mean, t, df, p: betaRegularized(df / (df + t * t), df / 2, 0.5) };
}

function logGamma(x: number): number {
  // Lanczos approximation (g = 7, n = 9), accurate to ~15 digits for x > 0.
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  x -= 1;
  let s = c[0]!;
  for (let i = 1; i < 9; i++) s += c[i]! / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(s);
}

/** I_x(a, b), the regularised incomplete beta function. */
export function betaRegularized(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * continuedFraction(x, a, b)) / a : 1 - (front * continuedFraction(1 - x, b, a)) / b;
}

function continuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    for (const aa of [(m * (b - m) * x) / ((a + m2 - 1) * (a + m2)), (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))]) {
      d = 1 + aa * d;
      if (Math.abs(d) < tiny) d = tiny;
      c = 1 + aa / c;
      if (Math.abs(c) < tiny) c = tiny;
      d = 1 / d;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}
