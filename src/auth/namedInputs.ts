// Under AUTH_READ=owner, the resources a request to apply an algorithm or a model, to run
// or compare validations, names as its inputs (dataset_uri, model_uri, test_dataset_uri,
// validation_uris, feature URIs...) must be readable by the caller: a job would otherwise
// read a private dataset from the store on behalf of someone its owner never granted.
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
  if (!JOB_PATH.test(ctx.path)) return;
  for (const value of await parameterValues(ctx)) {
    // A value may list several URIs (validation_uris takes them separated by spaces or commas).
    for (const uri of new Set([value.trim(), ...value.split(/[\s,]+/)])) {
      if (uri && !(await access.mayRead(uri))) throw new Forbidden(`${uri.slice(0, 200)} belongs to another user, who has not granted you access to it`);
    }
  }
}
