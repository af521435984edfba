/**
 * /healthz: the process is up and answering (200 always). /readyz: 200 once every Kafka listener is bound, the
 * logs are loaded and the coordinators have loaded their state; 503 before (and once shutdown has begun), the
 * body naming what is not done yet. The Docker image's HEALTHCHECK asks /readyz.
 */
import type { FastifyInstance } from 'fastify';
import type { HttpContext } from './context.js';

export function healthRoutes(app: FastifyInstance, ctx: HttpContext): void {
  app.get('/healthz', { config: { beforeReady: true } }, async () => ({ status: 'up' }));
  app.get('/readyz', { config: { beforeReady: true } }, async (_request, reply) => {
    const { logsLoaded, coordinatorsLoaded, listenersBound, closing } = ctx.progress;
    const checks = { logsLoaded, coordinatorsLoaded, listenersBound };
    const ready = logsLoaded && coordinatorsLoaded && listenersBound && !closing;
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : closing ? 'stopping' : 'starting', checks });
  });
}
