// Issue 22's acceptance: Confluent's own Python serializers (confluent_kafka.schema_registry: AvroSerializer,
// JSONSerializer, ProtobufSerializer, auto-registering) and kafkajs's schema-registry package
// (@kafkajs/confluent-schema-registry) produce and consume through gregor in Avro, JSON Schema and Protobuf; an
// incompatible change is refused with Confluent's code and message; and after a restart of the broker (file
// engine) both read the records back with the same ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { startTestBroker } from '../server/broker-harness.js';

const run = promisify(execFile);
const PYTHON = 'compat-tests/.cache/py/venv/bin/python';
const SCRIPT = 'test/e2e/python/schema_registry_serializers.py';

const AVRO = JSON.stringify({ type: 'record', name: 'Order', namespace: 'js.example', fields: [{ name: 'id', type: 'string' }, { name: 'qty', type: 'int' }] });
const JSON_SCHEMA = JSON.stringify({ type: 'object', properties: { id: { type: 'string' }, qty: { type: 'integer' } }, required: ['id'] });
const PROTO = 'syntax = "proto3";\npackage js.example;\n\nmessage Order {\n  string id = 1;\n  int32 qty = 2;\n}\n';

async function python(bootstrap: string, registry: string, action: string, groupSuffix = ''): Promise<unknown[]> {
  const { stdout } = await run(PYTHON, [SCRIPT, bootstrap, registry, 'py', action, groupSuffix], { timeout: 180_000 });
  return stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown);
}

/** Every value of a topic from its start, decoded by kafkajs's schema-registry package. */
async function consumeAll(kafka: Kafka, registry: SchemaRegistry, topic: string, count: number, group: string): Promise<unknown[]> {
  const consumer = kafka.consumer({ groupId: group, maxWaitTimeInMs: 100 });
  const values: unknown[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await new Promise<void>((resolve, reject) => {
    void consumer.run({
      eachMessage: async ({ message }) => {
        try {
          // As plain objects: avsc and protobufjs decode into instances of the record's class.
          values.push(JSON.parse(JSON.stringify(await registry.decode(message.value!))));
          if (values.length === count) resolve();
        } catch (error) {
          reject(error as Error);
        }
      },
    });
  });
  await consumer.disconnect();
  return values;
}

test('Python and kafkajs serializers round-trip Avro, JSON Schema and Protobuf through gregor; the registry survives a restart', { timeout: 600_000 }, async () => {
  await run('compat-tests/clients/python/install.sh', [], { timeout: 600_000 });
  const dir = await mkdtemp(join(tmpdir(), 'gregor-registry-e2e-'));
  const settings = { 'log.dirs': dir, 'gregor.log.engine': 'file', 'gregor.schema.registry.listeners': 'http://127.0.0.1:0', 'auto.create.topics.enable': 'true' };
  let broker = await startTestBroker(settings);
  try {
    const bootstrap = `127.0.0.1:${broker.port}`;
    const url = () => `http://127.0.0.1:${broker.schemaRegistryAddresses[0]!.port}`;
    const kafka = new Kafka({ brokers: [bootstrap], clientId: 'registry-e2e', logLevel: logLevel.NOTHING });

    // kafkajs: register each format, encode, produce.
    let registry = new SchemaRegistry({ host: url() });
    const avro = await registry.register({ type: SchemaType.AVRO, schema: AVRO }, { subject: 'js-avro-value' });
    const json = await registry.register({ type: SchemaType.JSON, schema: JSON_SCHEMA }, { subject: 'js-json-value' });
    const proto = await registry.register({ type: SchemaType.PROTOBUF, schema: PROTO }, { subject: 'js-protobuf-value' });
    assert.deepEqual([avro.id, json.id, proto.id], [1, 2, 3]);
    const producer = kafka.producer();
    await producer.connect();
    const order = { id: 'o-1', qty: 3 };
    await producer.send({ topic: 'js-avro', messages: [{ value: await registry.encode(avro.id, order) }] });
    await producer.send({ topic: 'js-json', messages: [{ value: await registry.encode(json.id, order) }] });
    await producer.send({ topic: 'js-protobuf', messages: [{ value: await registry.encode(proto.id, order) }] });
    await producer.disconnect();

    // Python: the serializers register on first use, then produce; the deserializers read the records back.
    const produced = await python(bootstrap, url(), 'produce');
    assert.deepEqual(produced, [{ format: 'avro', schema_id: 4 }, { format: 'json', schema_id: 5 }, { format: 'protobuf', schema_id: 6 }]);
    assert.deepEqual(await python(bootstrap, url(), 'consume'), [
      { format: 'avro', value: { id: 'p-1', amount: 12.5 } },
      { format: 'json', value: { id: 'p-1', amount: 12.5 } },
      { format: 'protobuf', value: { id: 'p-1', amount: 12.5 } },
    ]);
    // kafkajs decodes what Python wrote, fetching each writer schema by id.
    assert.deepEqual(await consumeAll(kafka, registry, 'py-avro', 1, 'js-reads-py-avro'), [{ id: 'p-1', amount: 12.5 }]);
    assert.deepEqual(await consumeAll(kafka, registry, 'py-json', 1, 'js-reads-py-json'), [{ id: 'p-1', amount: 12.5 }]);
    assert.deepEqual(await consumeAll(kafka, registry, 'py-protobuf', 1, 'js-reads-py-protobuf'), [{ id: 'p-1', amount: 12.5 }]);

    // An incompatible change (a field without a default under BACKWARD) is refused with Confluent's code and message.
    const [refused] = await python(bootstrap, url(), 'incompatible') as { http_status: number; error_code: number; message: string }[];
    assert.equal(refused!.http_status, 409);
    assert.equal(refused!.error_code, 40901);
    assert.match(refused!.message, /^Schema being registered is incompatible with an earlier schema for subject "py-avro-value", details: \[\{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'currency' at path '\/fields\/2' in the new schema has no default value and is missing in the old schema'/);
    await assert.rejects(registry.register({ type: SchemaType.AVRO, schema: JSON.stringify({ ...JSON.parse(AVRO), fields: [{ name: 'id', type: 'long' }] }) }, { subject: 'js-avro-value' }),
      /Schema being registered is incompatible with an earlier schema for subject "js-avro-value"/);

    // A restart: the ids and versions are read back from _schemas; both clients decode every record again.
    await broker.close();
    broker = await startTestBroker(settings);
    registry = new SchemaRegistry({ host: url() });
    const restarted = new Kafka({ brokers: [`127.0.0.1:${broker.port}`], clientId: 'registry-e2e-2', logLevel: logLevel.NOTHING });
    assert.deepEqual(await registry.getLatestSchemaId('js-protobuf-value'), 3);
    assert.deepEqual(await consumeAll(restarted, registry, 'js-avro', 1, 'after-restart-avro'), [order]);
    assert.deepEqual(await consumeAll(restarted, registry, 'js-json', 1, 'after-restart-json'), [order]);
    assert.deepEqual(await consumeAll(restarted, registry, 'js-protobuf', 1, 'after-restart-protobuf'), [order]);
    assert.deepEqual(await python(`127.0.0.1:${broker.port}`, url(), 'consume', '-after-restart'), [
      { format: 'avro', value: { id: 'p-1', amount: 12.5 } },
      { format: 'json', value: { id: 'p-1', amount: 12.5 } },
      { format: 'protobuf', value: { id: 'p-1', amount: 12.5 } },
    ]);
  } finally {
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
});
