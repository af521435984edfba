/**
 * The HTTP listener (gregor.http.listeners): one fastify app, served on each listed address by a node:http
 * server of its own (fastify's `routing` handler), bound before the logs load. Route modules come from routes.ts.
 * A request fastify cannot parse, a route that does not exist or a handler that throws gets a one-line JSON
 * error ({"error": "..."}), 4xx for the client's mistakes, 500 (logged with its stack) for gregor's.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import Fastify, { type FastifyError, type FastifyReply } from 'fastify';
import type { HttpListener } from '../config/index.js';
import type { Endpoint } from '../server/handler.js';
import type { HttpServerHandle, HttpStartup } from '../server/http-attachment.js';
import { HttpContext } from './context.js';
import { createMetricsRegistry } from './metrics/registry.js';
import { routeModules } from './routes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served while the broker is still starting (health, readiness, metrics); every other route answers 503 until then. */
    beforeReady?: boolean;
  }
}

export async function startHttpServer(startup: HttpStartup): Promise<HttpServerHandle> {
  const metrics = createMetricsRegistry();
  const ctx = new HttpContext(startup, metrics.registry);
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

  const servers: Server[] = [];
  const close = async () => {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Keep-alive and long-lived connections (a scraper, the console's live tail) would hold close() open.
      server.closeAllConnections();
    })));
    await app.close();
    metrics.close();
  };
  try {
    for (const listener of startup.listeners) servers.push(await listen(listener, (req, res) => app.routing(req, res)));
  } catch (err) {
    await close();
    throw err;
  }
  ctx.httpAddresses = servers.map((server, i) => boundAddress(server, startup.listeners[i]!));
  return {
    addresses: ctx.httpAddresses,
    serve: (parts) => ctx.attach(parts),
    close,
  };
}

function listen(listener: HttpListener, handler: RequestListener): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once('error', (err) => reject(new Error(`cannot bind the HTTP listener ${listener.host === '' ? '*' : listener.host}:${listener.port}: ${err.message}`)));
    const ready = () => resolve(server);
    if (listener.host === '') server.listen(listener.port, ready);
    else server.listen(listener.port, listener.host, ready);
  });
}

function boundAddress(server: Server, listener: HttpListener): Endpoint {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : listener.port;
  return { host: listener.host, port };
}
