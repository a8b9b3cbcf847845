// How a model's dependent variable is found in an external test set: by its URI, else by
// owl:sameAs (either way, or a shared equivalent), else by the same title and units. A
// training file and a test file uploaded separately with the same header give two features
// of one title; lazar and AMBIT reuse a feature by its name, and so does this.

/** A feature as far as matching goes. */
export interface MatchableFeature {
  uri: string;
  title: string;
  units?: string;
  sameAs?: string;
}

export type TargetMatch = 'uri' | 'sameAs' | 'title';

const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase();

/** The column of `columns` that holds `target`, and how it was found; undefined when none does. */
export function matchTarget(target: MatchableFeature, columns: readonly MatchableFeature[]): { index: number; match: TargetMatch } | undefined {
  const byUri = columns.findIndex((c) => c.uri === target.uri);
  if (byUri >= 0) return { index: byUri, match: 'uri' };
  const same = columns.findIndex((c) => c.sameAs === target.uri || (target.sameAs !== undefined && (c.uri === target.sameAs || c.sameAs === target.sameAs)));
  if (same >= 0) return { index: same, match: 'sameAs' };
  const byTitle = columns.findIndex((c) => norm(c.title) !== '' && norm(c.title) === norm(target.title) && norm(c.units) === norm(target.units));
  return byTitle >= 0 ? { index: byTitle, match: 'title' } : undefined;
}

/** What was tried, for a report that finds nothing. */
export const matchTried = (target: MatchableFeature): string =>
  `by URI, by owl:sameAs or by the title "${target.title}"${target.units ? ` with units "${target.units}"` : ''}`;
