/**
 * The HTTP starter startBroker is given (BrokerOptions.httpServer): fastify and prom-client are loaded only
 * when an HTTP listener is configured.
 */
import type { HttpServerStarter } from '../server/http-attachment.js';

export const httpServer: HttpServerStarter = async (startup) => (await import('./http-server.js')).startHttpServer(startup);
