// Pearson's chi-square test of independence for a contingency table, with its p-value
// from the regularised upper incomplete gamma function (Numerical Recipes gammq).

export function chiSquare(table: readonly (readonly number[])[]): { statistic: number; df: number; p: number } {
  const rows = table.length;
  const cols = table[0]?.length ?? 0;
  const rowSum = table.map((r) => r.reduce((s, v) => s + v, 0));
  const colSum = Array.from({ length: cols }, (_, j) => table.reduce((s, r) => s + r[j]!, 0));
  const n = rowSum.reduce((s, v) => s + v, 0);
  let statistic = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const expected = (rowSum[i]! * colSum[j]!) / n;
      if (expected > 0) statistic += (table[i]![j]! - expected) ** 2 / expected;
    }
  }
  const df = (rowSum.filter((v) => v > 0).length - 1) * (colSum.filter((v) => v > 0).length - 1);
  return { statistic, df, p: df > 0 ? gammaQ(df / 2, statistic / 2) : 1 };
}

function logGamma(x: number): number {
  const c = [76.18009172947146, -86.50532032941678, 24.01409824083091, -1.231739572450155, 0.001208650973866179, -0.000005395239384953];
  let y = x;
  const tmp = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let ser = 1.00000000019;
  for (const ci of c) ser += ci / ++y;
  return -tmp + Math.log((2.5066282746310007 * ser) / x);
}

/** Q(a, x) = 1 - P(a, x). */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  if (x < a + 1) {
    let sum = 1 / a;
    let del = sum;
    for (let n = 1; n < 500; n++) {
      del *= x / (a + n);
      sum += del;
      if (Math.abs(del) < Math.abs(sum) * 1e-14) break;
    }
    return 1 - sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
  }
  let b = x + 1 - a;
  let c = 1 / 1e-300;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-14) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}
