/**
 * The HTTP listener (gregor.http.listeners): each listed address is a node:http server of its own, bound at once
 * (before the logs load, so /healthz and /readyz answer during a long recovery). The fastify app behind them
 * (app.ts: routes, metrics registry) is loaded and built on the first request, which waits for it: fastify,
 * prom-client and the route modules then cost a start-up nothing (bench/startup-http.ts). The broker's parts,
 * handed over when start-up completes, are kept until the app exists.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { HttpListener } from '../config/index.js';
import type { Endpoint } from '../server/handler.js';
import type { BrokerParts, HttpServerHandle, HttpStartup } from '../server/http-attachment.js';
import type { HttpApp } from './app.js';

export async function startHttpServer(startup: HttpStartup): Promise<HttpServerHandle> {
  let parts: BrokerParts | undefined;
  let building: Promise<HttpApp> | undefined;
  let addresses: readonly Endpoint[] = [];
  const appFor = (): Promise<HttpApp> => (building ??= import('./app.js').then(async ({ buildHttpApp }) => {
    const built = await buildHttpApp(startup, addresses);
    if (parts !== undefined) built.ctx.attach(parts);
    return built;
  }));
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    appFor().then(({ app }) => app.routing(req, res), (err: Error) => {
      startup.log.error({ err }, 'the HTTP app could not be built');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: `internal error: ${err.message}` }));
    });
  };

  const servers: Server[] = [];
  const close = async (): Promise<void> => {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Keep-alive and long-lived connections (a scraper, the console's live tail) would hold close() open.
      server.closeAllConnections();
    })));
    if (building !== undefined) await (await building.catch(() => undefined))?.close();
  };
  try {
    for (const listener of startup.listeners) servers.push(await listen(listener, handle));
  } catch (err) {
    await close();
    throw err;
  }
  addresses = servers.map((server, i) => boundAddress(server, startup.listeners[i]!));
  return {
    addresses,
    serve: (ready) => {
      parts = ready;
      // An app built before start-up completed gets them now; one built later at once.
      void building?.then((built) => built.ctx.attach(ready), () => undefined);
    },
    close,
  };
}

function listen(listener: HttpListener, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
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
