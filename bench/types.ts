// A benchmark module measures figures side by side in one run and returns table rows.
export interface BenchRow {
  /** What was measured, e.g. "GET 50-triple resource as RDF/XML". */
  bench: string;
  /** The measured figure with its unit, e.g. "4,210 req/s". */
  figure: string;
  /** The baseline measured in the same run, with its unit. */
  baseline?: string;
  /** figure / baseline, or the goal it is checked against. */
  ratio?: string;
}

export interface BenchModule {
  title: string;
  run: () => Promise<BenchRow[]>;
}
