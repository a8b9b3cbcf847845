// Who reads what under AUTH_READ=owner: a dataset, model, validation or feature is read by
// its owner and by whom the owner grants (local grants, grants.ts, or the OpenSSO policy
// service in opensso mode); a resource without an owner (made while auth was off, built in)
// by every user. The owner of the resource or of the nearest resource above it decides
// (a dataset decides for its entries). A feature or model nobody owns follows what it was
// made from: a feature its ot:hasSource (the features an upload mints are as private as
// the dataset), a model its ot:trainingDataset (the per-fold models of a cross-validation).
// One ReadAccess per request remembers its answers; lists and /sparql filter with it.
// Under AUTH_READ=owner, the resources a request to apply an algorithm or a model, to run
// or compare validations, names as its inputs (dataset_uri, model_uri, test_dataset_uri,
// validation_uris, feature URIs...) must be readable by the caller: a job would otherwise
// read a private dataset from the store on behalf of someone its owner never granted.
// Applying an algorithm or a model checks its form when its route takes the caller
// (jobCallerOf), before the domain call; the middleware checks the other job paths.
import type Koa from 'koa';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { Forbidden } from '../errors.ts';
import { contentType, readForm, type Form } from '../http/body.ts';
import { OT } from '../rdf/vocab.ts';
import { isValidIri } from '../store/binder.ts';
import { callerOf, type AuthState, type Caller } from './caller.ts';
import { granteesOf, isGranted } from './grants.ts';
import { aclGraph, ownerOf } from './owners.ts';
import { PRIVATE_PATH, pathAndAncestors } from './policy.ts';

type AccessDeps = Pick<Deps, 'config' | 'store' | 'identity'>;

/** What an unowned resource was made from, by collection. */
const SOURCE = { feature: OT.hasSource, model: OT.trainingDataset } as const;
type Derived = keyof typeof SOURCE;
const derivedKind = (path: string): Derived | undefined => (path.startsWith('/feature/') ? 'feature' : path.startsWith('/model/') ? 'model' : undefined);
/** Enough for feature → model → dataset. */
const MOST_STEPS = 3;

export class ReadAccess {
  private readonly decisions = new Map<string, Promise<boolean>>();
  private owners: Map<string, string> | undefined;
  private sources: Map<string, string> | undefined;

  constructor(private readonly deps: AccessDeps, readonly user: string | undefined, private readonly token: string | undefined) {}

  /** Loads every owner and feature source at once, for callers that ask about many URIs. */
  async preload(): Promise<void> {
    const owned = await this.deps.store.match(null, OT.owner, null, aclGraph(this.deps.config));
    this.owners = new Map(owned.map((q) => [q.subject.value, q.object.value]));
    this.sources = new Map();
    for (const [kind, predicate] of Object.entries(SOURCE)) {
      for (const q of await this.deps.store.match(null, predicate, null, null)) {
        if (q.subject.value === q.graph.value && derivedKind(this.pathOf(q.subject.value) ?? '') === kind) this.sources.set(q.subject.value, q.object.value);
      }
    }
  }

  /** The path of a URI of this service (query and fragment dropped), else undefined. */
  private pathOf(uri: string): string | undefined {
    if (!URL.canParse(uri)) return undefined;
    const url = new URL(uri);
    return url.origin === new URL(this.deps.config.baseUrl).origin ? url.pathname.replace(/\/+$/, '') : undefined;
  }

  private async ownerOf(uri: string): Promise<string | undefined> {
    return this.owners ? this.owners.get(uri) : ownerOf(this.deps, uri);
  }

  private async sourceOf(uri: string, kind: Derived): Promise<string | undefined> {
    if (this.sources) return this.sources.get(uri);
    if (!isValidIri(uri)) return undefined;
    const [q] = await this.deps.store.match(DataFactory.namedNode(uri), SOURCE[kind], null, uri);
    return q?.object.value;
  }

  /** Whether the caller may read `uri`; any URI not of a private resource of this service is readable. */
  async mayRead(uri: string, steps = 0): Promise<boolean> {
    const path = this.pathOf(uri);
    if (path === undefined || !PRIVATE_PATH.test(path)) return true;
    const ancestors = pathAndAncestors(path);
    for (const at of ancestors) {
      const resource = uriOf(this.deps.config, at);
      const owner = await this.ownerOf(resource);
      if (owner !== undefined) return this.decide(resource, owner, at.startsWith('/task/'));
    }
    // The resource itself: /feature/{id} of /feature/{id}/anything.
    const top = ancestors.at(-2);
    const kind = top === undefined ? undefined : derivedKind(top);
    if (kind && top && steps < MOST_STEPS) {
      const source = await this.sourceOf(uriOf(this.deps.config, top), kind);
      if (source !== undefined) return this.mayRead(source, steps + 1);
    }
    return true;
  }

  private decide(resource: string, owner: string, ownerOnly: boolean): Promise<boolean> {
    if (owner === this.user) return Promise.resolve(true);
    // SPEC §4.3: a task is its owner's alone.
    if (ownerOnly || this.user === undefined) return Promise.resolve(false);
    let decision = this.decisions.get(resource);
    if (!decision) {
      decision = this.granted(resource, this.user);
      this.decisions.set(resource, decision);
    }
    return decision;
  }

  private async granted(resource: string, user: string): Promise<boolean> {
    const identity = this.deps.identity;
    if (identity?.authorize) return this.token !== undefined && identity.authorize(this.token, resource, 'GET');
    return isGranted(this.deps, resource, granteesOf(user, identity?.groupsOf?.(user) ?? []));
  }
}

/** The request's ReadAccess under AUTH_READ=owner with auth on; undefined when every caller reads everything. */
export function readAccessOf(deps: AccessDeps, ctx: Koa.Context): ReadAccess | undefined {
  if (!deps.identity || deps.config.authRead !== 'owner') return undefined;
  const state = ctx.state as AuthState & { readAccess?: ReadAccess };
  state.readAccess ??= new ReadAccess(deps, state.user, state.subjectid);
  return state.readAccess;
}

/** The filter lists apply: undefined when every caller reads everything. */
export function readFilter(deps: AccessDeps, ctx: Koa.Context): ((uri: string) => Promise<boolean>) | undefined {
  const access = readAccessOf(deps, ctx);
  return access && ((uri) => access.mayRead(uri));
}

export interface ListPage {
  limit: number;
  offset: number;
}

/**
 * One page of a list, with one item more asked for to tell whether more follow. With a
 * filter, the list is read from its start in chunks and filtered, so that pages and the
 * "more" flag count only what the caller may read.
 */
export async function readablePage(page: ListPage, fetch: (limit: number, offset: number) => Promise<string[]>, keep?: (uri: string) => Promise<boolean>): Promise<{ uris: string[]; more: boolean }> {
  if (!keep) {
    const uris = await fetch(page.limit + 1, page.offset);
    return { uris: uris.slice(0, page.limit), more: uris.length > page.limit };
  }
  const wanted = page.offset + page.limit + 1;
  const chunk = Math.max(wanted, 500);
  const kept: string[] = [];
  for (let at = 0; kept.length < wanted; at += chunk) {
    const rows = await fetch(chunk, at);
    for (const uri of rows) if (await keep(uri)) kept.push(uri);
    if (rows.length < chunk) break;
  }
  return { uris: kept.slice(page.offset, page.offset + page.limit), more: kept.length > page.offset + page.limit };
}

const JOB_PATH = /^\/(algorithm|model|validation)(\/|$)/;
/** POSTs whose routes check the form through jobCallerOf. */
const CHECKED_BY_ROUTE = /^\/(algorithm|model)\//;
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/** A caller as a domain call that starts a job takes it: with what they may read (absent when everyone reads everything). */
export interface JobCaller extends Caller {
  access?: ReadAccess;
}

/** The caller of a POST that starts a job, once every value of its `form` is a resource they may read (else 403). */
export async function jobCallerOf(deps: Pick<Deps, 'config' | 'store' | 'identity'>, ctx: Koa.Context, form: Form): Promise<JobCaller> {
  const caller: JobCaller = callerOf(ctx);
  const access = readAccessOf(deps, ctx);
  if (access) caller.access = access;
  await checkReadable(formValues(form), access);
  return caller;
}

/** Every value of a form. */
function formValues(form: Form): string[] {
  return form.names().flatMap((name) => form.all(name));
}

/** 403 naming the first value that is a resource the caller may not read. */
async function checkReadable(values: readonly string[], access: ReadAccess | undefined): Promise<void> {
  if (!access) return;
  for (const value of values) {
    // A value may list several URIs (validation_uris takes them separated by spaces or commas).
    for (const uri of new Set([value.trim(), ...value.split(/[\s,]+/)])) {
      if (uri && !(await access.mayRead(uri))) throw new Forbidden(`${uri.slice(0, 200)} belongs to another user, who has not granted you access to it`);
    }
  }
}

/** Every parameter value of the query string and of a form body. */
async function parameterValues(ctx: Koa.Context): Promise<string[]> {
  const values = Object.values(ctx.query).flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
  if (FORM_TYPES.has(contentType(ctx))) values.push(...formValues(await readForm(ctx)));
  return values;
}

/** The check for job paths whose routes do not take their caller through jobCallerOf. */
export async function checkNamedInputs(ctx: Koa.Context, access: ReadAccess): Promise<void> {
  if (!JOB_PATH.test(ctx.path) || (ctx.method === 'POST' && CHECKED_BY_ROUTE.test(ctx.path))) return;
  await checkReadable(await parameterValues(ctx), access);
}
