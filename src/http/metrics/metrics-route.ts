/** /metrics: the registry in Prometheus' text exposition format, answered while the broker starts too. */
import type { FastifyInstance } from 'fastify';
import type { HttpContext } from '../context.js';

export function metricsRoutes(app: FastifyInstance, ctx: HttpContext): void {
  app.get('/metrics', { config: { beforeReady: true } }, async (_request, reply) => {
    const text = await ctx.metrics.metrics();
    return reply.type(ctx.metrics.contentType).send(text);
  });
}
