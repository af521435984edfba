/**
 * The HTTP listener's fastify app: the route modules (routes.ts) over an HttpContext, the Prometheus registry, and
 * the one-line JSON errors. A request fastify cannot parse, a route that does not exist or a handler that throws
 * gets {"error": "..."}, 4xx for the client's mistakes, 500 (logged with its stack) for gregor's. Built by
 * http-server.ts on the first request, so fastify and prom-client cost a broker's start-up nothing.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Endpoint } from '../server/handler.js';
import type { HttpStartup } from '../server/http-attachment.js';
import { HttpContext } from './context.js';
import { createMetricsRegistry } from './metrics/registry.js';
import { routeModules } from './routes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served while the broker is still starting (health, readiness, metrics); every other route answers 503 until then. */
    beforeReady?: boolean;
  }
}

export interface HttpApp {
  readonly app: FastifyInstance;
  readonly ctx: HttpContext;
  close(): Promise<void>;
}

export async function buildHttpApp(startup: HttpStartup, addresses: readonly Endpoint[]): Promise<HttpApp> {
  const metrics = createMetricsRegistry();
  const ctx = new HttpContext(startup, metrics.registry);
  ctx.httpAddresses = addresses;
  const app = Fastify({
    logger: false,
    // What fastify refuses before routing (a URL that does not decode, a bad Content-Type) gets the same one-line JSON.
    frameworkErrors: (error: FastifyError, _request, reply: FastifyReply) => reply.code(error.statusCode ?? 400).send({ error: error.message }),
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!ctx.ready && request.routeOptions.config.beforeReady !== true) {
      return reply.code(503).send({ error: 'the broker is still starting (see /readyz)' });
    }
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: `no such resource: ${request.method} ${request.url}` }));
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) startup.log.error({ err: error, method: request.method, url: request.url }, 'HTTP request failed');
    return reply.code(status).send({ error: status >= 500 && error.statusCode === undefined ? `internal error: ${error.message}` : error.message });
  });
  for (const register of routeModules) register(app, ctx);
  metrics.addBrokerCollectors(ctx);
  await app.ready();
  return {
    app, ctx,
    async close() {
      await app.close();
      metrics.close();
    },
  };
}
