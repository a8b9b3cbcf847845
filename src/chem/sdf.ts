// SD files: records separated by "$$$$" lines, each a molfile followed by data items
// ("> <NAME>" then value lines up to a blank line).
export interface SdfRecord {
  /** 1-based position of the record in the file. */
  index: number;
  /** 1-based line of the record's first line, so errors can point at it. */
  line: number;
  molfile: string;
  fields: Record<string, string>;
}

const FIELD_HEADER = /^>.*<([^>]+)>/;

/** Splits an SD file into records; blank trailing records are dropped. */
export function splitSdf(text: string): SdfRecord[] {
  const lines = text.split(/\r?\n/);
  const records: SdfRecord[] = [];
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && lines[i]!.trim() !== '$$$$') continue;
    const chunk = lines.slice(start, i);
    if (chunk.some((l) => l.trim() !== '')) records.push(record(chunk, records.length + 1, start + 1));
    start = i + 1;
  }
  return records;
}

function record(chunk: string[], index: number, line: number): SdfRecord {
  const end = chunk.findIndex((l) => l.startsWith('M  END'));
  const molLines = end >= 0 ? chunk.slice(0, end + 1) : chunk.filter((l) => !FIELD_HEADER.test(l));
  const fields: Record<string, string> = {};
  if (end >= 0) {
    let name: string | undefined;
    let value: string[] = [];
    const flush = () => {
      if (name !== undefined) fields[name] = value.join('\n').trim();
      name = undefined;
      value = [];
    };
    for (const l of chunk.slice(end + 1)) {
      const header = FIELD_HEADER.exec(l);
      if (header) {
        flush();
        name = header[1];
      } else if (l.trim() === '') flush();
      else if (name !== undefined) value.push(l);
    }
    flush();
  }
  return { index, line, molfile: molLines.join('\n') + '\n', fields };
}

/** One SD record: the molfile (ending in M  END), data items, then "$$$$". */
export function sdfRecord(molfile: string, fields: Record<string, string> = {}): string {
  let out = molfile.replace(/\s*$/, '\n');
  for (const [name, value] of Object.entries(fields)) out += `> <${name}>\n${value}\n\n`;
  return out + '$$$$\n';
}
