// A CML document holding several molecules (a <list> or <cml> of <molecule>s, as CDK and
// Open Babel write them) split into one standalone CML document per top-level molecule,
// with the properties each carries (<scalar title="CasRN">, <property title=…><scalar>,
// <name>), so a dataset upload reads it record by record like an SD file.

export interface CmlMolecule {
  /** 1-based position in the document. */
  index: number;
  /** The molecule as a CML document of its own (the namespace of its ancestors kept). */
  cml: string;
  /** Properties by title, in document order. */
  properties: Map<string, string>;
}

const TAG = /<(\/?)((?:[\w.-]+:)?molecule)\b([^>]*?)(\/?)>/g;

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** The default namespace in force at `offset` (declared on an enclosing element). */
function namespaceAt(text: string, offset: number): string | undefined {
  const before = text.slice(0, offset);
  const all = [...before.matchAll(/xmlns="([^"]*)"/g)];
  return all.at(-1)?.[1];
}

function propertiesOf(body: string): Map<string, string> {
  const out = new Map<string, string>();
  const name = /<(?:[\w.-]+:)?name\b[^>]*>([^<]*)<\/(?:[\w.-]+:)?name>/.exec(body);
  // Groups 1-3 of both patterns are not optional: a match has them all.
  if (name && name[1]!.trim()) out.set('name', unescape(name[1]!.trim()));
  // <scalar title="X">v</scalar>, or <property title="X"><scalar>v</scalar></property>.
  const scalar = /<(?:[\w.-]+:)?(property|scalar)\b[^>]*\btitle="([^"]*)"[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?\1>/g;
  for (const m of body.matchAll(scalar)) {
    const title = m[2]!.trim();
    const value = m[1] === 'property' ? /<(?:[\w.-]+:)?scalar\b[^>]*>([^<]*)</.exec(m[3]!)?.[1] : m[3]!;
    if (value !== undefined && title && !out.has(title)) out.set(title, unescape(value.trim()));
  }
  return out;
}

/** The top-level molecules of a CML document (nested ones stay inside their parent). */
export function splitCml(text: string): CmlMolecule[] {
  const out: CmlMolecule[] = [];
  let depth = 0;
  let start = -1;
  for (const m of text.matchAll(TAG)) {
    const [whole, closing, , , selfClosing] = m;
    if (closing) {
      depth--;
      if (depth === 0 && start >= 0) {
        const element = text.slice(start, m.index! + whole.length);
        const ns = namespaceAt(text, start);
        const open = /^<[^>]*>/.exec(element)![0];
        const cml = ns && !/\sxmlns=/.test(open) ? element.replace(/^<([\w.:-]+)/, `<$1 xmlns="${ns}"`) : element;
        out.push({ index: out.length + 1, cml: `<?xml version="1.0"?>\n${cml}\n`, properties: propertiesOf(element) });
        start = -1;
      }
    } else if (!selfClosing) {
      if (depth === 0) start = m.index!;
      depth++;
    }
  }
  return out;
}
