/**
 * The web console: its page at /console/ (/ redirects there) and the JSON API the page reads under /console/api/.
 * A Kafka error answers {"error": "<NAME>: <message>", "code": "<NAME>"} with a 4xx status (404 for an unknown topic
 * or group, 409 for a conflict, 403 for a refusal by the authorizer, 400 otherwise); bad input is a 400 with one line.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ErrorCode } from '../../protocol/error-codes.js';
import { AclOperation } from '../../security/authorizer/acl.js';
import type { PartitionLog } from '../../storage/log.js';
import type { BrokerState } from '../../server/handler.js';
import type { HttpContext } from '../context.js';
import { pageFiles, gregorVersion } from './assets.js';
import { ConsoleRefusal, KafkaCallError, KafkaCalls } from './kafka-calls.js';
import { browse } from './messages.js';
import { BadRequest, browseFrom, filterOf, intOf, nullableString, offsetsByPartition, resetTargetOf, stringOf, stringRecord, type Body, type Query } from './api-input.js';
import { overview, ThroughputSampler } from './overview.js';
import { produceRecord } from './produce.js';
import { startTail, type TailEvent } from './tail.js';
import { describeGroup, deleteGroup, listGroups, resetOffsets } from './groups.js';
import { listTransactions } from './transactions.js';
import { clusterPage } from './cluster.js';
import { bindingOf, createAcl, deleteAcl, listAcls } from './acls.js';
import { deleteUserCredential, listUsers, upsertUser } from './users.js';
import {
  addPartitions, alterConfigs, createTopic, deleteRecords, deleteTopic, describeConfigs, describeProducers, partitionSummaries, ResourceType,
  topicSummaries,
} from './topics.js';

const STATUS_BY_CODE = new Map<number, number>([
  [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, 404],
  [ErrorCode.UNKNOWN_TOPIC_ID, 404],
  [ErrorCode.GROUP_ID_NOT_FOUND, 404],
  [ErrorCode.TOPIC_ALREADY_EXISTS, 409],
  [ErrorCode.NON_EMPTY_GROUP, 409],
  [ErrorCode.TOPIC_AUTHORIZATION_FAILED, 403],
  [ErrorCode.GROUP_AUTHORIZATION_FAILED, 403],
  [ErrorCode.CLUSTER_AUTHORIZATION_FAILED, 403],
  [ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, 403],
  [ErrorCode.RESOURCE_NOT_FOUND, 404],
  [ErrorCode.SECURITY_DISABLED, 409],
]);

function answerError(reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof KafkaCallError) return reply.code(STATUS_BY_CODE.get(err.code) ?? 400).send({ error: err.message, code: err.errorName });
  if (err instanceof ConsoleRefusal) return reply.code(409).send({ error: err.message });
  if (err instanceof BadRequest) return reply.code(400).send({ error: err.message });
  throw err;
}

/** The topic's partition logs (all, or the one asked for); 404 through KafkaCallError when there is none, 403 without READ. */
function logsOf(broker: BrokerState, kafka: KafkaCalls, topic: string, partition: string | undefined): Map<number, PartitionLog> {
  if (!kafka.allowedOnTopic(AclOperation.READ, topic)) throw new KafkaCallError(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
  const meta = broker.store.topic(topic);
  if (meta === undefined) throw new KafkaCallError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Topic ${topic} not found.`);
  const wanted = partition === undefined || partition === '' ? Array.from({ length: meta.partitions }, (_, p) => p) : [intOf(partition, 'partition')];
  const logs = new Map<number, PartitionLog>();
  for (const p of wanted) {
    const log = broker.store.log(topic, p);
    if (log === undefined) throw new KafkaCallError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Partition ${topic}-${p} not found.`);
    logs.set(p, log);
  }
  return logs;
}

export function consoleRoutes(app: FastifyInstance, ctx: HttpContext): void {
  let kafka: KafkaCalls | undefined;
  // Made on first use: the broker's parts exist only once start-up is complete (no route runs before).
  const calls = (): KafkaCalls => (kafka ??= new KafkaCalls(ctx.broker));
  const sampler = new ThroughputSampler();
  const api = '/console/api';

  /** A JSON route whose Kafka errors and bad input become their 4xx answers. */
  const route = <P extends Record<string, string>>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string,
    handle: (params: P, query: Query, body: Body) => Promise<unknown> | unknown): void => {
    app.route({
      method, url,
      handler: async (request, reply) => {
        try {
          const result = await handle(request.params as P, request.query as Query, request.body as Body);
          return reply.send(result ?? { ok: true });
        } catch (err) {
          return answerError(reply, err);
        }
      },
    });
  };

  app.get('/', (_request, reply) => reply.redirect('/console/'));
  app.get('/console', (_request, reply) => reply.redirect('/console/'));
  app.get('/console/', (_request, reply) => servePage(reply, 'index.html'));
  app.get('/console/:file', (request, reply) => servePage(reply, (request.params as { file: string }).file));

  route('GET', `${api}/overview`, () => overview(ctx.broker, gregorVersion(), ctx.scheduler.now() - ctx.startedAt, sampler.sample(ctx.broker, ctx.scheduler.now())));

  route('GET', `${api}/topics`, () => topicSummaries(ctx.broker).filter((t) => calls().allowedOnTopic(AclOperation.DESCRIBE, t.name)));
  route('POST', `${api}/topics`, async (_p, _q, body) => {
    const name = stringOf(body?.['name'], 'name');
    await createTopic(calls(), name, body?.['partitions'] === undefined ? -1 : intOf(body['partitions'], 'partitions', 1),
      stringRecord(body?.['configs'], 'configs', false) as Record<string, string>);
    return { name };
  });
  route<{ topic: string }>('GET', `${api}/topics/:topic`, async ({ topic }) => {
    if (!calls().allowedOnTopic(AclOperation.DESCRIBE, topic)) throw new KafkaCallError(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    const summary = topicSummaries(ctx.broker).find((t) => t.name === topic);
    const partitions = partitionSummaries(ctx.broker, topic);
    if (summary === undefined || partitions === undefined) throw new KafkaCallError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Topic ${topic} not found.`);
    const [configs, producers] = await Promise.all([
      describeConfigs(calls(), ResourceType.TOPIC, topic), describeProducers(calls(), topic, summary.partitions),
    ]);
    return { ...summary, partitionDetails: partitions, configs, producers };
  });
  route<{ topic: string }>('DELETE', `${api}/topics/:topic`, ({ topic }) => deleteTopic(calls(), topic));
  route<{ topic: string }>('PATCH', `${api}/topics/:topic/configs`, ({ topic }, _q, body) =>
    alterConfigs(calls(), ResourceType.TOPIC, topic, stringRecord(body?.['configs'], 'configs', true)));
  route<{ topic: string }>('POST', `${api}/topics/:topic/partitions`, ({ topic }, _q, body) =>
    addPartitions(calls(), topic, intOf(body?.['total'], 'total', 1)));
  route<{ topic: string }>('POST', `${api}/topics/:topic/delete-records`, async ({ topic }, _q, body) => {
    const offsets = offsetsByPartition(body?.['offsets']);
    if (offsets === undefined) throw new BadRequest('offsets must map partitions to offsets (-1: the high watermark)');
    return { lowWatermarks: await deleteRecords(calls(), topic, offsets) };
  });

  route<{ topic: string }>('GET', `${api}/topics/:topic/messages`, ({ topic }, query) => {
    const logs = logsOf(ctx.broker, calls(), topic, query['partition']);
    return browse(logs, { partitions: [...logs.keys()], from: browseFrom(query), limit: query['limit'] === undefined ? 50 : intOf(query['limit'], 'limit', 1), filter: filterOf(query) });
  });
  route<{ topic: string }>('POST', `${api}/topics/:topic/messages`, async ({ topic }, _q, body) => {
    const meta = ctx.broker.store.topic(topic);
    if (meta === undefined) throw new KafkaCallError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Topic ${topic} not found.`);
    const headers = body?.['headers'] ?? [];
    if (!Array.isArray(headers)) throw new BadRequest('headers must be a list of {key, value}');
    return produceRecord(calls(), {
      topic,
      ...(body?.['partition'] === undefined || body['partition'] === null ? {} : { partition: intOf(body['partition'], 'partition') }),
      key: nullableString(body?.['key'], 'key'),
      value: nullableString(body?.['value'], 'value'),
      headers: headers.map((h: unknown, i) => {
        const header = h as Record<string, unknown> | null;
        return { key: stringOf(header?.['key'], `headers[${i}].key`), value: nullableString(header?.['value'], `headers[${i}].value`) };
      }),
    }, meta.partitions, ctx.scheduler.now());
  });
  app.get(`${api}/topics/:topic/tail`, (request, reply) => {
    const query = request.query as Query;
    let logs: Map<number, PartitionLog>;
    try {
      logs = logsOf(ctx.broker, calls(), (request.params as { topic: string }).topic, query['partition']);
    } catch (err) {
      return answerError(reply, err);
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(': tailing\n\n');
    const stop = startTail(logs, filterOf(query), ctx.scheduler, (event: TailEvent | null) => {
      if (event === null) res.end();
      else res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    });
    request.raw.on('close', stop);
  });

  route('GET', `${api}/groups`, () => listGroups(calls()));
  route<{ group: string }>('GET', `${api}/groups/:group`, ({ group }) => describeGroup(ctx.broker, calls(), group));
  route<{ group: string }>('POST', `${api}/groups/:group/reset-offsets`, async ({ group }, _q, body) => ({
    offsets: await resetOffsets(ctx.broker, calls(), group, body?.['topic'] === undefined || body['topic'] === '' ? undefined : stringOf(body['topic'], 'topic'),
      resetTargetOf(body)),
  }));
  route<{ group: string }>('DELETE', `${api}/groups/:group`, ({ group }) => deleteGroup(calls(), group));

  route('GET', `${api}/transactions`, () => listTransactions(calls()));

  route('GET', `${api}/cluster`, () => clusterPage(ctx.broker, (topic) => calls().allowedOnTopic(AclOperation.DESCRIBE, topic)));

  route('GET', `${api}/acls`, (_p, query) => listAcls(calls(), {
    ...optional('resourceType', query['resourceType']), ...optional('resourceName', query['resourceName']), ...optional('patternType', query['patternType']),
    ...optional('principal', query['principal']), ...optional('host', query['host']), ...optional('operation', query['operation']),
    ...optional('permissionType', query['permissionType']),
  }));
  route('POST', `${api}/acls`, async (_p, _q, body) => {
    const acl = bindingOf(body);
    await createAcl(calls(), acl);
    return acl;
  });
  // DELETE with the binding in the body: an ACL has no id of its own, kafka-acls --remove names every field too.
  route('DELETE', `${api}/acls`, async (_p, _q, body) => ({ deleted: await deleteAcl(calls(), bindingOf(body)) }));

  route('GET', `${api}/users`, () => listUsers(calls()));
  route<{ user: string; mechanism: string }>('PUT', `${api}/users/:user/credentials/:mechanism`, async ({ user, mechanism }, _q, body) => {
    const password = stringOf(body?.['password'], 'password');
    await upsertUser(calls(), user, mechanism, body?.['iterations'] === undefined ? 4096 : intOf(body['iterations'], 'iterations', 1), password);
    return { user, mechanism };
  });
  route<{ user: string; mechanism: string }>('DELETE', `${api}/users/:user/credentials/:mechanism`, async ({ user, mechanism }) => {
    await deleteUserCredential(calls(), user, mechanism);
    return { user, mechanism };
  });

  route('GET', `${api}/broker/configs`, () => describeConfigs(calls(), ResourceType.BROKER, String(ctx.broker.nodeId)));
  route('PATCH', `${api}/broker/configs`, (_p, _q, body) =>
    alterConfigs(calls(), ResourceType.BROKER, String(ctx.broker.nodeId), stringRecord(body?.['configs'], 'configs', true)));
}

const optional = <K extends string>(key: K, value: string | undefined): { [k in K]?: string } =>
  (value === undefined || value === '' ? {} : { [key]: value }) as { [k in K]?: string };

function servePage(reply: FastifyReply, name: string): FastifyReply {
  const file = pageFiles().get(name);
  if (file === undefined) return reply.code(404).send({ error: name === 'index.html' ? 'the console page is not built (npm run build)' : `no such file: ${name}` });
  return reply.type(file.type).header('cache-control', 'no-cache').send(file.body);
}
