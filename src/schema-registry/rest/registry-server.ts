// The registry's own port (gregor.schema.registry.listeners, Confluent's `listeners`): a node:http server per
// address, bound at start-up; fastify and the routes load on the first request, so a broker whose registry port
// is never used pays nothing for it at start-up (the command binds http://localhost:8081 by default).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { RegistryListener } from '../../config/schema-registry-listeners.js';
import type { SchemaRegistry } from '../registry.js';

export interface RegistryServer {
  /** The bound addresses, port 0 resolved. */
  readonly addresses: readonly RegistryListener[];
  close(): Promise<void>;
}

async function createApp(registry: SchemaRegistry): Promise<FastifyInstance> {
  const [{ default: Fastify }, { registerSchemaRegistryRoutes }] = await Promise.all([import('fastify'), import('./registry-routes.js')]);
  const app = Fastify({ logger: false });
  registerSchemaRegistryRoutes(app, () => registry);
  await app.ready();
  return app;
}

export async function startRegistryServer(registry: SchemaRegistry, listeners: readonly RegistryListener[]): Promise<RegistryServer> {
  let app: Promise<FastifyInstance> | undefined;
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    (app ??= createApp(registry)).then((ready) => ready.routing(request, response), (error: Error) => {
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error_code: 50001, message: error.message }));
    });
  };
  const servers: Server[] = [];
  const close = async () => {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    })));
    if (app !== undefined) await (await app.catch(() => undefined))?.close();
  };
  const addresses: RegistryListener[] = [];
  try {
    for (const listener of listeners) {
      const server = createServer(handle);
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(listener.port, listener.host === '' ? undefined : listener.host, () => resolve());
      });
      const address = server.address();
      addresses.push({ host: listener.host, port: typeof address === 'object' && address !== null ? address.port : listener.port });
    }
  } catch (error) {
    await close();
    throw new Error(`cannot bind the schema registry listener: ${(error as Error).message}`);
  }
  return { addresses, close };
}
