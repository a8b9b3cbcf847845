// Datasets of other OpenTox services: fetched as RDF/XML with the caller's
// subjectid, and algorithm outputs published to a dataset_service (SPEC §2.1). A remote
// failure answers 502 carrying the remote report as its cause (SPEC §7.2 rule 1).
import type * as RDF from '@rdfjs/types';
import { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import { BadGateway, BadRequest, type ErrorReportData } from '../errors.ts';
import { parseRemoteReport } from '../http/remoteReport.ts';
import { RDF_XML, syntaxOf } from '../rdf/formats.ts';
import { parseRdf } from '../rdf/parse.ts';
import { ERR } from '../rdf/vocab.ts';
import { isValidIri } from '../store/binder.ts';
import { rdfTextStream } from '../rdf/stream.ts';
import { datasetQuadChunks } from './datasetOutput.ts';
import { viewOf } from './datasetView.ts';

const TIMEOUT_MS = 60_000;

/** The report a remote service answered (SPEC §7.2 rule 1), read by the shared parser. */
async function remoteReport(uri: string, res: Response): Promise<ErrorReportData> {
  return parseRemoteReport(res.status, res.headers.get('content-type') ?? '', await res.text().catch(() => ''), uri);
}

/** fetch() with a time limit, turning network failures into 502 with the reason as cause. */
export async function remoteFetch(uri: string, init: RequestInit & { subjectid?: string }): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.subjectid) headers.set('subjectid', init.subjectid);
  try {
    return await fetch(uri, { ...init, headers, signal: init.signal ?? AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    const reason = (e as Error & { cause?: { code?: string; message?: string } }).cause?.message ?? (e as Error).message;
    throw new BadGateway(`${uri} could not be reached: ${reason}`, [{ status: 503, code: ERR.ServiceUnavailable.value, actor: uri, message: reason, causes: [] }]);
  }
}

export async function fetchRemoteDataset(_deps: Deps, uri: string, subjectid?: string): Promise<RDF.Quad[]> {
  const res = await remoteFetch(uri, { headers: { Accept: RDF_XML }, subjectid });
  if (!res.ok) throw new BadGateway(`dataset ${uri} answered ${res.status}`, [await remoteReport(uri, res)]);
  const syntax = syntaxOf(res.headers.get('content-type') ?? '') ?? 'rdfxml';
  const text = await res.text();
  try {
    return await parseRdf(text, syntax, uri);
  } catch (e) {
    throw new BadGateway(`dataset ${uri} did not answer readable RDF`, [{ status: 502, code: ERR.RDFSyntaxError.value, actor: uri, message: (e as Error).message, causes: [] }]);
  }
}

/** Follows a remote task (SPEC §4.3) until it answers its result URI. */
async function awaitRemoteTask(taskUri: string, subjectid?: string): Promise<string> {
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    const res = await remoteFetch(taskUri, { headers: { Accept: 'text/uri-list' }, subjectid });
    const text = (await res.clone().text()).trim();
    if (res.status === 200) return text;
    if (res.status === 201 && text) return awaitRemoteTask(text, subjectid);
    if (res.status !== 202) throw new BadGateway(`remote task ${taskUri} failed`, [await remoteReport(taskUri, res)]);
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** POSTs a local dataset (as RDF/XML) to another dataset service; answers the URI it made. */
export async function publishDataset(deps: Deps, datasetUri: string, datasetService: string, subjectid?: string): Promise<string> {
  if (!isValidIri(datasetService) || !/^https?:/.test(datasetService)) throw new BadRequest(`dataset_service is not an http(s) URI: ${JSON.stringify(datasetService)}`, { code: ERR.InvalidIRI });
  const view = await viewOf(deps, datasetUri);
  let body = '';
  for await (const chunk of Readable.from(rdfTextStream(datasetQuadChunks(deps, view), 'rdfxml'))) body += chunk;
  const res = await remoteFetch(datasetService, { method: 'POST', headers: { 'Content-Type': RDF_XML, Accept: 'text/uri-list' }, body, subjectid });
  const text = (await res.clone().text()).trim();
  if (res.status === 202) return awaitRemoteTask(text, subjectid);
  if (!res.ok || !isValidIri(text)) throw new BadGateway(`dataset service ${datasetService} refused the dataset`, [await remoteReport(datasetService, res)]);
  return text;
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
