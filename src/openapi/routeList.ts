// The routes the app actually serves, read from its mounted @koa/router routers, in the
// OpenAPI document's terms: {name} path templates, methods in lower case, HEAD left out
// (every GET answers it), and a route for every method (router.all) as GET and POST.
import type Koa from 'koa';
import type Router from '@koa/router';

export interface Route {
  method: string;
  path: string;
}

const DOCUMENTED = new Set(['get', 'post', 'put', 'delete']);

export function routesOf(app: Koa): Route[] {
  const routers = app.middleware.map((m) => (m as { router?: Router }).router).filter((r): r is Router => r !== undefined);
  const out = new Map<string, Route>();
  for (const router of routers) {
    for (const layer of router.stack) {
      const methods = layer.methods.map((m) => m.toLowerCase()).filter((m) => m !== 'head');
      if (methods.length === 0) continue; // router.use: middleware, not a route
      // A trailing slash is the same collection (GET /compound/).
      const path = String(layer.path).replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
      const all = methods.length > 4;
      for (const method of all ? ['get', 'post'] : methods.filter((m) => DOCUMENTED.has(m))) out.set(`${method} ${path}`, { method, path });
    }
  }
  return [...out.values()];
}
