// The one catch point (STYLE §1): any error becomes an ot:ErrorReport negotiated like any
// body, text/plain on request, and a plain-text fallback if producing the report fails.
import type Koa from 'koa';
import { reportOf, reportQuads, reportText } from './errorReport.ts';
import { HttpError, MethodNotAllowed, NotFound } from '../errors.ts';
import { rdfVariants, type Reply } from './reply.ts';
import { send } from './send.ts';
import { TEXT_PLAIN, URI_LIST } from '../rdf/formats.ts';
import { logSafe } from './logSafe.ts';

export interface ErrorMiddlewareOptions {
  actor: string;
  debug: boolean;
  log?: (err: unknown) => void;
}

/** Reply for an error report: RDF formats (RDF/XML default) plus plain text. */
export function errorReply(err: unknown, options: ErrorMiddlewareOptions): Reply {
  const report = reportOf(err, options.actor, options.debug);
  const text = reportText(report);
  const variants = rdfVariants(() => reportQuads(report)).filter((v) => v.type !== TEXT_PLAIN);
  // Clients that asked for a URI list or plain text get readable text, not RDF.
  variants.push({ type: TEXT_PLAIN, produce: () => text }, { type: URI_LIST, produce: () => text });
  const headers = err instanceof HttpError ? err.headers : {};
  return { status: report.status, headers, variants };
}

export function errorMiddleware(options: ErrorMiddlewareOptions): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (!ctx.headerSent && (ctx.body === undefined || ctx.body === null)) {
        if (ctx.status === 404) throw new NotFound(`no resource at ${ctx.path}`);
        // @koa/router's allowedMethods sets 405 and Allow; answer it as a report too.
        if (ctx.status === 405) throw new MethodNotAllowed(ctx.method, String(ctx.response.get('Allow')).split(/,\s*/));
      }
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) options.log?.(logSafe(err));
      if (ctx.headerSent) return;
      let status = err instanceof HttpError ? err.status : 500;
      try {
        const reply = errorReply(err, options);
        status = reply.status;
        await send(ctx, reply);
        if (reply.variants.length && ctx.type.startsWith(URI_LIST)) ctx.type = `${TEXT_PLAIN}; charset=utf-8`;
      } catch (inner) {
        // The report could not be produced: answer plain text that cannot fail.
        options.log?.(logSafe(inner));
        ctx.status = status;
        ctx.type = `${TEXT_PLAIN}; charset=utf-8`;
        ctx.body = safeText(err, options.actor, status);
      }
    }
  };
}

/** Plain text of the report, or a minimal one when even that fails (e.g. a malformed cause). */
function safeText(err: unknown, actor: string, status: number): string {
  try {
    return reportText(reportOf(err, actor, false));
  } catch {
    const message = err instanceof Error ? err.message : 'internal error';
    return `${status} ${status >= 500 ? 'InternalServerError' : 'Error'}: ${message}\nactor: ${actor}\n`;
  }
}
