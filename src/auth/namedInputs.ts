// Under AUTH_READ=owner, the resources a request to apply an algorithm or a model, or to
// run a validation, names as its inputs (dataset_uri, model_uri, test_dataset_uri,
// feature URIs...) must be readable by the caller: a job would otherwise read a private
// dataset from the store on behalf of someone its owner never granted.
import type Koa from 'koa';
import { Forbidden } from '../errors.ts';
import { contentType, readForm } from '../http/body.ts';
import type { ReadAccess } from './readAccess.ts';

const JOB_PATH = /^\/(algorithm|model|validation)(\/|$)/;
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/** Every parameter value of the query string and of a form body. */
async function parameterValues(ctx: Koa.Context): Promise<string[]> {
  const values = Object.values(ctx.query).flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
  if (FORM_TYPES.has(contentType(ctx))) {
    const form = await readForm(ctx);
    for (const name of form.names()) values.push(...form.all(name));
  }
  return values;
}

/** 403 naming the first parameter value that is a resource the caller may not read. */
export async function checkNamedInputs(ctx: Koa.Context, access: ReadAccess): Promise<void> {
  if (ctx.method !== 'POST' || !JOB_PATH.test(ctx.path)) return;
  for (const value of await parameterValues(ctx)) {
    if (!(await access.mayRead(value.trim()))) {
      throw new Forbidden(`${value.trim().slice(0, 200)} belongs to another user, who has not granted you access to it`);
    }
  }
}
