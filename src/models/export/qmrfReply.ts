// GET /model/{id}/qmrf: the model's QMRF 1.3 report as XML (the schema's format) or as a
// page (text/html); built per request, since validations added later change it.
import type { Deps } from '../../deps.ts';
import type { Reply } from '../../http/reply.ts';
import { qmrfDocument } from './qmrfDocument.ts';
import { qmrfFacts } from './qmrfFacts.ts';
import { qmrfHtml } from './qmrfHtml.ts';
import { toXml } from './xmlTree.ts';

export const QMRF_XML = 'application/xml';

export async function qmrfReply(deps: Deps, uri: string, keep?: (uri: string) => Promise<boolean>): Promise<Reply> {
  const facts = await qmrfFacts(deps, uri, keep);
  const doc = qmrfDocument(facts, deps.config.baseUrl);
  return {
    status: 200,
    headers: {},
    variants: [
      { type: QMRF_XML, produce: () => toXml(doc) },
      { type: 'text/html', produce: () => qmrfHtml(doc, { title: facts.info.title || uri, base: deps.config.baseUrl, uri }) },
    ],
  };
}
