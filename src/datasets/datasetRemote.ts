// Datasets of other OpenTox services: fetched as RDF/XML (with the caller's subjectid where the
// outbound policy lets it go), and algorithm outputs published to a dataset_service (SPEC
// §2.1), through the client for other services (src/http/remote.ts): a remote failure answers
// 502 carrying the remote report, or why the service could not be used, as its cause (SPEC
// §7.2 rule 1).
import type * as RDF from '@rdfjs/types';
import { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import { BadGateway, BadRequest } from '../errors.ts';
import { masked } from '../http/outbound/policy.ts';
import { fetchRemote, type RemoteResponse } from '../http/remote.ts';
import { MAX_TEXT, parseRemoteReport } from '../http/remoteReport.ts';
import { RDF_XML, syntaxOf } from '../rdf/formats.ts';
import { parseRdf } from '../rdf/parse.ts';
import { rdfTextStream } from '../rdf/stream.ts';
import { ERR } from '../rdf/vocab.ts';
import { isValidIri } from '../store/binder.ts';
import { datasetQuadChunks } from './datasetOutput.ts';
import { viewOf } from './datasetLayout.ts';

const uriListOf = (res: RemoteResponse): string => res.body.toString('utf8').trim();

const clip = (text: string): string => (text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) + '…' : text);

/** A 502 for an answer that cannot be used, with that answer read as the cause (SPEC §7.2 rule 1). */
async function unusable(message: string, res: RemoteResponse): Promise<BadGateway> {
  return new BadGateway(message, [await parseRemoteReport(res.status, res.contentType, res.body.toString('utf8'), res.url)]);
}

/**
 * `uri` as an IRI the client accepts: SPEC §2.1 lets a dataset_uri carry feature_uris[]
 * unescaped, and an IRI's query cannot hold "[" or "]" (RFC 3987 §2.2). Percent-encoded, the
 * remote reads the same query; a fragment is never sent.
 */
function requestIri(uri: string): string {
  const url = new URL(uri);
  url.hash = '';
  url.search = url.search.replace(/[[\]\\^`{|}]|%(?![0-9A-Fa-f]{2})/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return url.href;
}

export async function fetchRemoteDataset(deps: Deps, uri: string, subjectid?: string): Promise<RDF.Quad[]> {
  const target = requestIri(uri);
  const res = await fetchRemote(deps.config, target, { accept: RDF_XML, subjectid, what: 'dataset_uri' });
  if (res.status >= 300) throw await unusable(`dataset ${masked(uri)} answered ${res.status}`, res);
  // RDF/XML was asked for: a service that labels it otherwise (text/html, text/xml…) is read as such.
  const syntax = syntaxOf(res.contentType) ?? 'rdfxml';
  try {
    return await parseRdf(res.body.toString('utf8'), syntax, target);
  } catch (e) {
    // A parser's message quotes the text it stopped at: no more of it than of any other reply.
    throw new BadGateway(`dataset ${masked(uri)} did not answer readable RDF`, [{ status: 502, code: ERR.RDFSyntaxError.value, actor: masked(target), message: clip((e as Error).message), causes: [] }]);
  }
}

/** The task URI of a 201 or 202 answer (SPEC §4.3); one that cannot be followed is the remote's fault. */
async function taskUriOf(res: RemoteResponse): Promise<string> {
  const uri = uriListOf(res);
  if (isValidIri(uri) && /^https?:\/\//i.test(uri)) return uri;
  throw await unusable(`${masked(res.url)} answered ${res.status} without a task URI to follow`, res);
}

/** Follows a remote task (SPEC §4.3) until it answers its result URI. */
async function awaitRemoteTask(deps: Deps, taskUri: string, subjectid?: string): Promise<string> {
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    // A failed task answers its error status and report: fetchRemote makes that the cause.
    const res = await fetchRemote(deps.config, taskUri, { accept: 'text/uri-list', subjectid, what: 'the remote task' });
    if (res.status === 201) return awaitRemoteTask(deps, await taskUriOf(res), subjectid);
    if (res.status !== 202) {
      const result = uriListOf(res);
      if (res.status === 200 && isValidIri(result)) return result;
      throw await unusable(`remote task ${masked(taskUri)} answered ${res.status} without a result URI`, res);
    }
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** POSTs a local dataset (as RDF/XML) to another dataset service; answers the URI it made. */
export async function publishDataset(deps: Deps, datasetUri: string, datasetService: string, subjectid?: string): Promise<string> {
  if (!isValidIri(datasetService) || !/^https?:/.test(datasetService)) throw new BadRequest(`dataset_service is not an http(s) URI: ${JSON.stringify(masked(datasetService))}`, { code: ERR.InvalidIRI });
  const view = await viewOf(deps, datasetUri);
  let body = '';
  for await (const chunk of Readable.from(rdfTextStream(datasetQuadChunks(deps, view), 'rdfxml'))) body += chunk;
  const res = await fetchRemote(deps.config, datasetService, { method: 'POST', body, contentType: RDF_XML, accept: 'text/uri-list', subjectid, what: 'dataset_service' });
  if (res.status === 202) return awaitRemoteTask(deps, await taskUriOf(res), subjectid);
  const made = uriListOf(res);
  if (res.status >= 300 || !isValidIri(made)) throw await unusable(`dataset service ${masked(datasetService)} refused the dataset`, res);
  return made;
}

/**
 * Publishes a result dataset made for a job (SPEC §2.1 dataset_service). When the dataset
 * service fails the job fails (502, SPEC §7.2 rule 1), and the local copy, which nothing
 * would point to, is removed first.
 */
export async function publishResult(deps: Deps, local: string, datasetService: string, subjectid?: string): Promise<string> {
  try {
    return await publishDataset(deps, local, datasetService, subjectid);
  } catch (e) {
    await deps.store.dropGraph(local);
    throw e;
  }
}
