// The registry's state lives in `_schemas` (file engine): the records are Confluent's JSON keys and values (what a
// Confluent registry reading the topic expects), and a restarted broker serves the same subjects, versions, ids,
// configs and modes, and gives the next new schema the next id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBrokerConfig } from '../../src/config/index.js';
import { openLogStore } from '../../src/broker/open-store.js';
import { decodeBatchRecords } from '../../src/protocol/records/index.js';
import { replayBatches } from '../../src/storage/log-replay.js';
import { startTestBroker } from '../server/broker-harness.js';
import type { Broker } from '../../src/server/broker.js';

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

async function call(broker: Broker, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${broker.schemaRegistryAddresses[0]!.port}${path}`, {
    method, headers: { 'content-type': CONTENT_TYPE }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.json();
}

test('subjects, versions, ids, configs and modes survive a restart; _schemas holds Confluent\'s records', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gregor-registry-'));
  const settings = { 'log.dirs': dir, 'gregor.log.engine': 'file', 'gregor.schema.registry.listeners': 'http://127.0.0.1:0' };
  try {
    let broker = await startTestBroker(settings);
    assert.deepEqual(await call(broker, 'POST', '/subjects/a-value/versions', { schema: '"string"' }), { id: 1 });
    assert.deepEqual(await call(broker, 'POST', '/subjects/b-value/versions', { schema: '{"type":"enum","name":"E","symbols":["X"]}' }), { id: 2 });
    assert.deepEqual(await call(broker, 'POST', '/subjects/b-value/versions', { schema: '{"type":"enum","name":"E","symbols":["X","Y"]}' }), { id: 3 });
    assert.deepEqual(await call(broker, 'DELETE', '/subjects/b-value/versions/1'), 1);
    assert.deepEqual(await call(broker, 'PUT', '/config/a-value', { compatibility: 'FULL' }), { compatibility: 'FULL' });
    assert.deepEqual(await call(broker, 'PUT', '/mode/a-value', { mode: 'READONLY' }), { mode: 'READONLY' });
    const contract = { metadata: { properties: { owner: 'bob' }, tags: { name: ['PII'] } }, ruleSet: { domainRules: [{ name: 'short', type: 'CEL', kind: 'CONDITION', expr: 'size(message) < 9' }] } };
    assert.deepEqual(await call(broker, 'POST', '/subjects/d-value/versions', { schema: '"int"', ...contract }), { id: 4 });
    assert.deepEqual(await call(broker, 'POST', '/subjects/:.team:e-value/versions', { schema: '"int"' }), { id: 1 });
    await broker.close();

    // The topic's records, as Confluent's KafkaStore writes them.
    const store = await openLogStore(resolveBrokerConfig(settings));
    const records: [string, string | null][] = [];
    assert.deepEqual(store.topic('_schemas')?.configs, { 'cleanup.policy': 'compact' });
    for await (const batch of replayBatches(store.log('_schemas', 0)!, 0, 1 << 20)) {
      for (const r of decodeBatchRecords(batch)) records.push([r.key!.toString(), r.value === null ? null : r.value.toString()]);
    }
    await store.close();
    assert.deepEqual(records, [
      ['{"keytype":"SCHEMA","subject":"a-value","version":1,"magic":1}', '{"subject":"a-value","version":1,"id":1,"schema":"\\"string\\"","deleted":false}'],
      ['{"keytype":"SCHEMA","subject":"b-value","version":1,"magic":1}', '{"subject":"b-value","version":1,"id":2,"schema":"{\\"type\\":\\"enum\\",\\"name\\":\\"E\\",\\"symbols\\":[\\"X\\"]}","deleted":false}'],
      ['{"keytype":"SCHEMA","subject":"b-value","version":2,"magic":1}', '{"subject":"b-value","version":2,"id":3,"schema":"{\\"type\\":\\"enum\\",\\"name\\":\\"E\\",\\"symbols\\":[\\"X\\",\\"Y\\"]}","deleted":false}'],
      ['{"keytype":"SCHEMA","subject":"b-value","version":1,"magic":1}', '{"subject":"b-value","version":1,"id":2,"schema":"{\\"type\\":\\"enum\\",\\"name\\":\\"E\\",\\"symbols\\":[\\"X\\"]}","deleted":true}'],
      // Confluent's ConfigValue and ModeValue name their subject first.
      ['{"keytype":"CONFIG","subject":"a-value","magic":0}', '{"subject":"a-value","compatibilityLevel":"FULL"}'],
      ['{"keytype":"MODE","subject":"a-value","magic":0}', '{"subject":"a-value","mode":"READONLY"}'],
      // Metadata and rule set between the references and the schema, as Jackson writes Confluent's SchemaValue.
      ['{"keytype":"SCHEMA","subject":"d-value","version":1,"magic":1}', '{"subject":"d-value","version":1,"id":4,' +
        '"metadata":{"tags":{"name":["PII"]},"properties":{"owner":"bob"}},' +
        '"ruleSet":{"domainRules":[{"name":"short","kind":"CONDITION","mode":"WRITEREAD","type":"CEL","expr":"size(message) < 9","disabled":false}]},' +
        '"schema":"\\"int\\"","deleted":false}'],
      // A context's first schema: its CONTEXT record first, and ids of its own.
      ['{"keytype":"CONTEXT","tenant":"default","context":".team","magic":0}', '{"tenant":"default","context":".team"}'],
      ['{"keytype":"SCHEMA","subject":":.team:e-value","version":1,"magic":1}', '{"subject":":.team:e-value","version":1,"id":1,"schema":"\\"int\\"","deleted":false}'],
    ]);

    broker = await startTestBroker(settings);
    try {
      assert.deepEqual(await call(broker, 'GET', '/subjects'), [':.team:e-value', 'a-value', 'b-value', 'd-value']);
      assert.deepEqual(await call(broker, 'GET', '/contexts'), ['.', '.team']);
      assert.deepEqual(await call(broker, 'GET', '/subjects/b-value/versions'), [2]);
      assert.deepEqual(await call(broker, 'GET', '/subjects/b-value/versions?deleted=true'), [1, 2]);
      assert.deepEqual(await call(broker, 'GET', '/schemas/ids/3'), { schema: '{"type":"enum","name":"E","symbols":["X","Y"]}' });
      assert.deepEqual(await call(broker, 'GET', '/config/a-value'), { compatibilityLevel: 'FULL' });
      assert.deepEqual(await call(broker, 'GET', '/mode/a-value'), { mode: 'READONLY' });
      // The same schema keeps its id; a new one takes the next.
      assert.deepEqual(await call(broker, 'POST', '/subjects/c-value/versions', { schema: '"string"' }), { id: 1 });
      assert.deepEqual(await call(broker, 'POST', '/subjects/c-value/versions', { schema: '["null","string"]' }), { id: 5 });
      assert.deepEqual(await call(broker, 'GET', '/subjects/d-value/versions/1'), {
        subject: 'd-value', version: 1, id: 4,
        metadata: { tags: { name: ['PII'] }, properties: { owner: 'bob' } },
        ruleSet: { domainRules: [{ name: 'short', kind: 'CONDITION', mode: 'WRITEREAD', type: 'CEL', expr: 'size(message) < 9', disabled: false }] },
        schema: '"int"',
      });
    } finally {
      await broker.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('records another writer appended to _schemas (a Confluent registry) are served; a deleted _schemas is forgotten', async () => {
  const broker = await startTestBroker({ 'gregor.schema.registry.listeners': 'http://127.0.0.1:0', 'auto.create.topics.enable': 'true' });
  try {
    const { Kafka, logLevel } = await import('kafkajs');
    const kafka = new Kafka({ brokers: [`127.0.0.1:${(broker as Broker & { port: number }).port}`], clientId: 'confluent-writer', logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: '_schemas',
      messages: [{
        key: '{"keytype":"SCHEMA","subject":"from-confluent","version":1,"magic":1}',
        value: '{"subject":"from-confluent","version":1,"id":7,"schemaType":"JSON","schema":"{\\"type\\":\\"object\\"}","deleted":false}',
      }],
    });
    await producer.disconnect();
    assert.deepEqual(await call(broker, 'GET', '/subjects/from-confluent/versions/1'), { subject: 'from-confluent', version: 1, id: 7, schemaType: 'JSON', schema: '{"type":"object"}' });
    // A deleted _schemas takes what it held with it; the registry starts over on the next one.
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: ['_schemas'] });
    await admin.disconnect();
    assert.deepEqual(await call(broker, 'GET', '/subjects'), []);
    assert.deepEqual(await call(broker, 'POST', '/subjects/again/versions', { schema: '"int"' }), { id: 1 });
    assert.deepEqual(await call(broker, 'GET', '/subjects'), ['again']);
  } finally {
    await broker.close();
  }
});
