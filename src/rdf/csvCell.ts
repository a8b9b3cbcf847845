// One field of every CSV the service writes, and its inverse for uploads. A spreadsheet
// runs a cell that begins with = + - @ (or a tab or carriage return before one) as a
// formula: `=HYPERLINK(...)` or `=cmd|' /C calc'!A0` in a dataset would act when a
// researcher opens its CSV. Such a text cell is written with a leading apostrophe, which
// spreadsheets take as "text" and do not show (OWASP, CSV injection). A number (-1.5,
// +3e2) is no formula and stays as it is. Cells that already begin with apostrophes before
// such a character get one more, and an upload takes exactly one off, so that download and
// upload again give back every value unchanged.

const FORMULA_START = /^'*[=+\-@\t\r]/;
const GUARDED = /^'+[=+\-@\t\r]/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** `value` as a spreadsheet reads it as text: prefixed by an apostrophe where it would start a formula. */
export function guardFormula(value: string): string {
  // Most cells begin with a letter or a digit: one comparison, not two regular expressions (a dataset download's inner loop).
  const first = value.charCodeAt(0);
  if (first > 0x40 || (first >= 0x30 && first <= 0x39)) return value;
  return FORMULA_START.test(value) && !NUMBER.test(value) ? `'${value}` : value;
}

/** An uploaded cell without the apostrophe guardFormula added. */
export function unguardFormula(value: string): string {
  return GUARDED.test(value) ? value.slice(1) : value;
}

/** RFC 4180 field of `value`, guarded against formulas: quoted when it holds a comma, quote or line break. */
export function csvField(value: string): string {
  const v = guardFormula(value);
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
