// Values as computed, to the precision they have: a descriptor summed from tabulated
// increments (weights, logP, areas) is known to a few decimals, and the binary float
// beyond (206.28499999999997, or 37.29999923706055 from single precision) is noise that
// every output format would otherwise print.

/** `value` rounded to `digits` decimals, as the nearest double to that decimal. */
export function roundTo(value: number, digits: number): number {
  const rounded = Number(value.toFixed(digits));
  return Object.is(rounded, -0) ? 0 : rounded;
}
