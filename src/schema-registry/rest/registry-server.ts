// The registry's own port (gregor.schema.registry.listeners, Confluent's listeners): a fastify app serving the
// REST API at its root, one node:http server per listed address.
import Fastify, { type FastifyInstance } from 'fastify';
import type { RegistryListener } from '../../config/schema-registry-listeners.js';
import type { SchemaRegistry } from '../registry.js';
import { registerSchemaRegistryRoutes } from './registry-routes.js';

export interface RegistryServer {
  /** The bound addresses, port 0 resolved. */
  readonly addresses: readonly RegistryListener[];
  close(): Promise<void>;
}

export async function startRegistryServer(registry: SchemaRegistry, listeners: readonly RegistryListener[]): Promise<RegistryServer> {
  const apps: FastifyInstance[] = [];
  const addresses: RegistryListener[] = [];
  try {
    for (const listener of listeners) {
      const app = Fastify({ logger: false, return503OnClosing: true, forceCloseConnections: true });
      apps.push(app);
      registerSchemaRegistryRoutes(app, () => registry);
      await app.listen({ host: listener.host === '' ? '0.0.0.0' : listener.host, port: listener.port });
      const address = app.server.address();
      addresses.push({ host: listener.host, port: typeof address === 'object' && address !== null ? address.port : listener.port });
    }
  } catch (error) {
    await Promise.all(apps.map((app) => app.close()));
    throw new Error(`cannot bind the schema registry listener: ${(error as Error).message}`);
  }
  return { addresses, close: async () => void (await Promise.all(apps.map((app) => app.close()))) };
}
