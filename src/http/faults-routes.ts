/**
 * Fault injection and the broker's clock over HTTP (issue #21), for tests in any language:
 *   POST   /v1/faults                    add a rule (JSON body, server/faults/fault-rule.ts): 201 with the rule, 400 naming
 *                                        what is wrong
 *   GET    /v1/faults                    the rules in force, with how often each fired
 *   DELETE /v1/faults[/<id>]             remove every rule, or one (404 when there is no such rule)
 *   GET    /v1/faults/scenarios          the named scenarios and what they do
 *   POST   /v1/faults/scenarios/<name>   add a scenario's rules (body: its parameters): {"rules": [...]}; leader-moved in
 *                                        cluster mode moves leadership instead: {"rules": [], "moved": [...]}
 *   GET    /v1/clock                     {"clock": "system"|"manual", "now": ms}
 *   POST   /v1/clock/advance             {"ms": N}: moves a manual clock, running the timers that fall due; 409 on the
 *                                        system clock
 * Every injected fault is counted in /metrics as gregor_faults_injected_total{api,action}.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { FaultRuleError } from '../server/faults/fault-rule.js';
import { SCENARIOS } from '../server/faults/scenarios.js';
import type { HttpContext } from './context.js';
import { registerScraped } from './metrics/scraped-metric.js';

export function faultsRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const refused = (reply: FastifyReply, err: unknown) => {
    if (err instanceof FaultRuleError) return reply.code(400).send({ error: err.message });
    throw err;
  };
  app.post('/v1/faults', async (request, reply) => {
    try {
      return reply.code(201).send(ctx.broker.faults.add(request.body));
    } catch (err) {
      return refused(reply, err);
    }
  });
  app.get('/v1/faults', async () => ({ rules: ctx.broker.faults.list() }));
  app.delete('/v1/faults', async () => ({ removed: ctx.broker.faults.clear() }));
  app.delete<{ Params: { id: string } }>('/v1/faults/:id', async (request, reply) => {
    const id = Number(request.params.id);
    if (!Number.isSafeInteger(id) || !ctx.broker.faults.remove(id)) return reply.code(404).send({ error: `no fault rule ${request.params.id}` });
    return reply.code(204).send();
  });
  app.get('/v1/faults/scenarios', async () => ({
    scenarios: Object.entries(SCENARIOS).map(([name, scenario]) => ({ name, doc: scenario.doc })),
  }));
  app.post<{ Params: { name: string } }>('/v1/faults/scenarios/:name', async (request, reply) => {
    try {
      return reply.code(201).send(await ctx.broker.faults.addScenario(request.params.name, request.body ?? undefined));
    } catch (err) {
      return refused(reply, err);
    }
  });

  app.get('/v1/clock', async () => ({ clock: ctx.broker.clock.manual ? 'manual' : 'system', now: ctx.broker.clock.now() }));
  app.post('/v1/clock/advance', async (request, reply) => {
    const { clock } = ctx.broker;
    const body = request.body as { ms?: unknown } | null | undefined;
    const ms = typeof body === 'object' && body !== null ? body.ms : undefined;
    if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) {
      return reply.code(400).send({ error: `the body must be {"ms": N}, N a whole number of milliseconds >= 0, not ${JSON.stringify(request.body ?? null)}` });
    }
    if (!clock.manual) return reply.code(409).send({ error: 'the broker runs on the system clock: start it with gregor.clock=manual to advance it' });
    await clock.advance(ms);
    return { clock: 'manual', now: clock.now() };
  });

  registerScraped(ctx.metrics, {
    name: 'gregor_faults_injected_total',
    help: 'Faults injected by fault rules (POST /v1/faults), per API and action.',
    type: 'counter',
    collect: () => (ctx.ready ? [...ctx.broker.faults.injected.values()].map(({ api, action, count }) => ({ labels: { api, action }, value: count })) : []),
  });
}
