// application/json streamed (STYLE §7): chunk by chunk, the resource's own keys first, then
// what later chunks add to it (a dataset's entries) as array items while they arrive; the
// other nodes go under "included" at the end. Only those (a dataset's features, a few)
// wait in memory, never the entries.
import type * as RDF from '@rdfjs/types';
import { jsonNodes, type JsonEdge, type JsonNode } from './plainJson.ts';

const items = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);
const indent = (text: string): string => text.replace(/\n/g, '\n  ');

export async function* jsonTextStream(chunks: Iterable<RDF.Quad[]> | AsyncIterable<RDF.Quad[]>, edge: JsonEdge): AsyncGenerator<string> {
  const root = edge.resource;
  yield `{\n  "@context": ${JSON.stringify(edge.contextUrl)}`;
  if (root === undefined) {
    yield* flat(chunks);
    return;
  }
  const written = new Set<string>(['@context']);
  const included: JsonNode[] = [];
  let open: string | undefined;
  let rootSeen = false;
  for await (const chunk of chunks) {
    let out = '';
    for (const node of jsonNodes(chunk, root)) {
      if (node.id !== root) {
        included.push(node);
        continue;
      }
      rootSeen = true;
      const later: JsonNode = {};
      for (const [key, value] of Object.entries(node)) {
        if (key === 'id' && written.has('id')) continue;
        if (key === open) {
          out += items(value).map((v) => ',\n    ' + indent(indent(JSON.stringify(v, null, 2)))).join('');
        } else if (!written.has(key)) {
          if (open !== undefined) out += '\n  ]';
          open = undefined;
          written.add(key);
          if (key === 'id' || !Array.isArray(value)) {
            out += `,\n  ${JSON.stringify(key)}: ${indent(JSON.stringify(value, null, 2))}`;
          } else {
            // An array may grow in the next chunk: left open until another key comes.
            open = key;
            out += `,\n  ${JSON.stringify(key)}: [` + value.map((v, i) => (i ? ',' : '') + '\n    ' + indent(indent(JSON.stringify(v, null, 2)))).join('');
          }
        } else {
          // Written and closed already: the same triples, stated beside the resource.
          later[key] = value;
        }
      }
      if (Object.keys(later).length > 0) included.push({ id: root, ...later });
    }
    if (out) yield out;
  }
  if (open !== undefined) yield '\n  ]';
  if (included.length > 0) {
    // No triple of the resource itself: the nodes stand as a @graph, as JSON-LD would read them.
    const key = rootSeen ? 'included' : '@graph';
    yield `,\n  ${JSON.stringify(key)}: [` + included.map((n, i) => (i ? ',' : '') + '\n    ' + indent(indent(JSON.stringify(n, null, 2)))).join('') + '\n  ]';
  }
  yield '\n}\n';
}

/** No resource to stand for the document: every node in a @graph, as it comes. */
async function* flat(chunks: Iterable<RDF.Quad[]> | AsyncIterable<RDF.Quad[]>): AsyncGenerator<string> {
  yield ',\n  "@graph": [';
  let first = true;
  for await (const chunk of chunks) {
    let out = '';
    for (const node of jsonNodes(chunk)) {
      out += (first ? '' : ',') + '\n    ' + indent(indent(JSON.stringify(node, null, 2)));
      first = false;
    }
    if (out) yield out;
  }
  yield '\n  ]\n}\n';
}
