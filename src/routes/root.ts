// GET / : a service description listing the collections.
import Router from '@koa/router';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { handle } from '../http/send.ts';
import { uriListReply } from '../http/reply.ts';
import { DC, OT, RDF, RDFS } from '../rdf/vocab.ts';

const { quad, namedNode, literal } = DataFactory;

/** The collections this service serves, with what each holds. */
export const COLLECTIONS: ReadonlyArray<{ path: string; title: string }> = [
  { path: '/algorithm', title: 'Algorithms: descriptor calculation, pattern mining, learning, feature selection, cleanup' },
  { path: '/compound', title: 'Compounds and their conformers, in chemical MIME formats' },
  { path: '/dataset', title: 'Datasets: compounds by features with values' },
  { path: '/feature', title: 'Features: numeric, nominal and string' },
  { path: '/model', title: 'Models built by learning algorithms' },
  { path: '/task', title: 'Tasks of asynchronous jobs' },
  { path: '/ontology', title: 'Loaded ontologies (API terms, algorithm types, error codes)' },
  { path: '/sparql', title: 'SPARQL 1.1 query endpoint (read-only)' },
];

export function rootRouter(deps: Deps): Router {
  const router = new Router();
  router.get('/', handle(() => {
    const service = namedNode(uriOf(deps.config, '/'));
    const links = COLLECTIONS.map((c) => ({ uri: uriOf(deps.config, c.path), title: c.title }));
    const uris = links.map((l) => l.uri);
    const quads = [
      quad(service, RDF.type, OT.Service),
      quad(service, DC.title, literal('OpenTox REST service')),
      quad(service, DC.description, literal('OpenTox REST interface 1.2 over an embedded Oxigraph store')),
      ...links.flatMap(({ uri, title }) => [
        quad(service, RDFS.seeAlso, namedNode(uri)),
        quad(namedNode(uri), DC.title, literal(title)),
      ]),
    ];
    return uriListReply(uris, { quads });
  }));
  return router;
}
