// Under AUTH_READ=owner, the resources a request to apply an algorithm or a model, to run
// or compare validations, names as its inputs (dataset_uri, model_uri, test_dataset_uri,
// validation_uris, feature URIs...) must be readable by the caller: a job would otherwise
// read a private dataset from the store on behalf of someone its owner never granted.
// Applying an algorithm or a model checks its form in its domain call (startApply,
// startPredict), with the rest of its inputs; the middleware checks the other job paths.
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { Forbidden } from '../errors.ts';
import { contentType, readForm, type Form } from '../http/body.ts';
import { callerOf, type Caller } from './caller.ts';
import { readAccessOf, type ReadAccess } from './readAccess.ts';

const JOB_PATH = /^\/(algorithm|model|validation)(\/|$)/;
/** POSTs whose domain call checks the inputs itself (startApply, startPredict). */
const CHECKED_BY_DOMAIN = /^\/(algorithm|model)\//;
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/** A caller as a domain call that starts a job takes it: with what they may read (absent when everyone reads everything). */
export interface JobCaller extends Caller {
  access?: ReadAccess;
}

export function jobCallerOf(deps: Pick<Deps, 'config' | 'store' | 'identity'>, ctx: Koa.Context): JobCaller {
  const caller: JobCaller = callerOf(ctx);
  const access = readAccessOf(deps, ctx);
  if (access) caller.access = access;
  return caller;
}

/** Every value of a form. */
export function formValues(form: Form): string[] {
  return form.names().flatMap((name) => form.all(name));
}

/** 403 naming the first value that is a resource the caller may not read. */
export async function checkReadable(values: readonly string[], access: ReadAccess | undefined): Promise<void> {
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

/** The check for job paths whose routes start no domain call that checks them. */
export async function checkNamedInputs(ctx: Koa.Context, access: ReadAccess): Promise<void> {
  if (!JOB_PATH.test(ctx.path) || (ctx.method === 'POST' && CHECKED_BY_DOMAIN.test(ctx.path))) return;
  await checkReadable(await parameterValues(ctx), access);
}
