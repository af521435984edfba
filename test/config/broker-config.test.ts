import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  brokerConfigDefinitions, ConfigError, defaultBrokerConfig, LONG_MAX_VALUE, resolveBrokerConfig,
} from '../../src/config/index.js';

/** Resolves and expects a ConfigError for `key`, returning its message. */
function rejects(props: Record<string, string>, key: string): string {
  let message = '';
  assert.throws(() => resolveBrokerConfig(props), (error: unknown) => {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    assert.equal(error.key, key);
    assert.ok(!error.message.includes('\n'), 'one line');
    assert.ok(error.message.includes(key), 'names the key');
    message = error.message;
    return true;
  });
  return message;
}

test("gregor's defaults: a single combined node on localhost:9092, log.dirs ./data", () => {
  const config = defaultBrokerConfig();
  assert.deepEqual(config['listeners'], ['PLAINTEXT://localhost:9092']);
  assert.equal(config['advertised.listeners'], null);
  assert.deepEqual(config['log.dirs'], ['./data']);
  assert.equal(config['node.id'], 1);
  assert.equal(config['broker.id'], 1);
  assert.equal(config['num.partitions'], 1);
  assert.equal(config['group.initial.rebalance.delay.ms'], 0);
  assert.equal(config['offsets.topic.replication.factor'], 1);
  assert.equal(config['transaction.state.log.replication.factor'], 1);
  assert.equal(config['transaction.state.log.min.isr'], 1);
});

test('the engine when neither it nor log.dirs is set: memory in-process, file (./data) for the command', () => {
  assert.equal(defaultBrokerConfig()['gregor.log.engine'], 'memory');
  assert.equal(resolveBrokerConfig({ listeners: 'PLAINTEXT://127.0.0.1:0' })['gregor.log.engine'], 'memory');
  const command = resolveBrokerConfig({}, undefined, { logEngineWhenUnset: 'file' });
  assert.equal(command['gregor.log.engine'], 'file');
  assert.deepEqual(command['log.dirs'], ['./data']);
  // A log dir given means files there; an engine given is kept.
  assert.equal(resolveBrokerConfig({ 'log.dirs': '/x' })['gregor.log.engine'], 'file');
  assert.equal(resolveBrokerConfig({ 'log.dir': '/x' })['gregor.log.engine'], 'file');
  assert.equal(resolveBrokerConfig({ 'gregor.log.engine': 'file' })['gregor.log.engine'], 'file');
  assert.equal(resolveBrokerConfig({ 'log.dirs': '/x', 'gregor.log.engine': 'memory' })['gregor.log.engine'], 'memory');
  assert.equal(resolveBrokerConfig({ 'gregor.log.engine': 'memory' }, undefined, { logEngineWhenUnset: 'file' })['gregor.log.engine'], 'memory');
});

test("Kafka's defaults where gregor keeps them", () => {
  const config = defaultBrokerConfig();
  assert.equal(config['auto.create.topics.enable'], true);
  assert.equal(config['default.replication.factor'], 1);
  assert.equal(config['message.max.bytes'], 1048588);
  assert.equal(config['socket.request.max.bytes'], 104857600);
  assert.equal(config['connections.max.idle.ms'], 600000);
  assert.equal(config['log.retention.ms'], 7 * 24 * 3600 * 1000);
  assert.equal(config['log.retention.hours'], 168);
  assert.equal(config['log.retention.minutes'], null);
  assert.equal(config['log.retention.bytes'], -1);
  assert.equal(config['log.segment.bytes'], 1073741824);
  assert.equal(config['log.roll.ms'], 7 * 24 * 3600 * 1000);
  assert.equal(config['log.flush.interval.messages'], LONG_MAX_VALUE);
  assert.equal(config['log.flush.interval.ms'], LONG_MAX_VALUE);
  assert.equal(config['offsets.topic.num.partitions'], 50);
  assert.equal(config['offsets.retention.minutes'], 10080);
  assert.equal(config['group.min.session.timeout.ms'], 6000);
  assert.equal(config['group.max.session.timeout.ms'], 1800000);
  assert.equal(config['transaction.max.timeout.ms'], 900000);
  assert.deepEqual(config['log.cleanup.policy'], ['delete']);
  assert.equal(config['log.cleaner.min.cleanable.ratio'], 0.5);
});

test('every definition has a doc line, a known type and a default of that type', () => {
  for (const def of Object.values(brokerConfigDefinitions)) {
    assert.ok(def.doc.length > 10, def.name);
    const value: unknown = def.default;
    if (value === null) continue;
    switch (def.type) {
      case 'BOOLEAN': assert.equal(typeof value, 'boolean', def.name); break;
      case 'INT': case 'SHORT': case 'LONG': case 'DOUBLE': assert.equal(typeof value, 'number', def.name); break;
      case 'LIST': assert.ok(Array.isArray(value), def.name); break;
      default: assert.ok(typeof value === 'string' || Array.isArray(value), def.name);
    }
    assert.equal(def.check(value as never), null, `${def.name} default passes its own validator`);
  }
});

test('values are typed from their text', () => {
  const config = resolveBrokerConfig({
    'num.partitions': ' 3 ',
    'auto.create.topics.enable': 'FALSE',
    'log.retention.bytes': '9223372036854775807',
    'log.cleaner.min.cleanable.ratio': '0.75',
    'log.cleanup.policy': 'compact, delete',
    'compression.type': 'zstd',
    'offsets.topic.replication.factor': '1',
  });
  assert.equal(config['num.partitions'], 3);
  assert.equal(config['auto.create.topics.enable'], false);
  assert.equal(config['log.retention.bytes'], LONG_MAX_VALUE);
  assert.equal(config['log.cleaner.min.cleanable.ratio'], 0.75);
  assert.deepEqual(config['log.cleanup.policy'], ['compact', 'delete']);
  assert.equal(config['compression.type'], 'zstd');
});

test('a bad value throws one line naming the key and what it accepts', () => {
  assert.equal(rejects({ 'num.partitions': '0' }, 'num.partitions'),
    'Invalid value "0" for configuration num.partitions: expects a 32-bit integer in [1,...]');
  assert.match(rejects({ 'num.partitions': 'three' }, 'num.partitions'), /expects a 32-bit integer/);
  assert.match(rejects({ 'message.max.bytes': '2147483648' }, 'message.max.bytes'), /32-bit integer/);
  assert.match(rejects({ 'offsets.topic.replication.factor': '40000' }, 'offsets.topic.replication.factor'), /16-bit integer/);
  assert.match(rejects({ 'auto.create.topics.enable': 'yes' }, 'auto.create.topics.enable'), /expects true or false/);
  assert.match(rejects({ 'log.cleaner.min.cleanable.ratio': '1.5' }, 'log.cleaner.min.cleanable.ratio'), /\[0,\.\.\.,1\]/);
  assert.match(rejects({ 'log.cleanup.policy': 'compact,forever' }, 'log.cleanup.policy'), /\[compact, delete\]/);
  assert.match(rejects({ 'compression.type': 'brotli' }, 'compression.type'), /uncompressed, zstd, lz4, snappy, gzip, producer/);
  assert.match(rejects({ 'compression.gzip.level': '0' }, 'compression.gzip.level'), /\[1,\.\.\.,9\] or -1/);
  assert.match(rejects({ 'log.segment.bytes': '1000' }, 'log.segment.bytes'), /\[1048576,\.\.\.\]/);
  assert.match(rejects({ 'gregor.log.engine': 'tape' }, 'gregor.log.engine'), /\[file, memory\]/);
});

test('an empty value unsets a config whose default is null', () => {
  const config = resolveBrokerConfig({ 'log.retention.minutes': '', 'broker.rack': '' });
  assert.equal(config['log.retention.minutes'], null);
  assert.equal(config['broker.rack'], '');
});

test('an unknown key is a warning, and the rest still applies', () => {
  const warnings: string[] = [];
  const config = resolveBrokerConfig({ 'no.such.key': '1', 'num.partitions': '4' }, (w) => warnings.push(w));
  assert.equal(config['num.partitions'], 4);
  assert.deepEqual(warnings, ['Unknown config key no.such.key is ignored']);
});

test('retention: log.retention.ms beats log.retention.minutes beats log.retention.hours', () => {
  assert.equal(resolveBrokerConfig({ 'log.retention.hours': '2' })['log.retention.ms'], 2 * 3600000);
  assert.equal(resolveBrokerConfig({ 'log.retention.hours': '2', 'log.retention.minutes': '3' })['log.retention.ms'], 3 * 60000);
  assert.equal(resolveBrokerConfig({ 'log.retention.hours': '2', 'log.retention.minutes': '3', 'log.retention.ms': '5000' })['log.retention.ms'], 5000);
  assert.equal(resolveBrokerConfig({ 'log.retention.minutes': '3', 'log.retention.ms': '5000' })['log.retention.ms'], 5000);
});

test('retention: any negative value means forever (-1); zero is rejected naming the key that set it', () => {
  assert.equal(resolveBrokerConfig({ 'log.retention.hours': '-1' })['log.retention.ms'], -1);
  assert.equal(resolveBrokerConfig({ 'log.retention.ms': '-5' })['log.retention.ms'], -1);
  assert.equal(resolveBrokerConfig({ 'log.retention.minutes': '-1', 'log.retention.hours': '5' })['log.retention.ms'], -1);
  rejects({ 'log.retention.minutes': '0' }, 'log.retention.minutes');
  rejects({ 'log.retention.ms': '0' }, 'log.retention.ms');
});

test('roll and flush times fall back to their synonyms', () => {
  const config = resolveBrokerConfig({ 'log.roll.hours': '1', 'log.roll.jitter.hours': '2', 'log.flush.scheduler.interval.ms': '3000' });
  assert.equal(config['log.roll.ms'], 3600000);
  assert.equal(config['log.roll.jitter.ms'], 7200000);
  assert.equal(config['log.flush.interval.ms'], 3000);
  const explicit = resolveBrokerConfig({ 'log.roll.hours': '1', 'log.roll.ms': '500', 'log.flush.interval.ms': '10' });
  assert.equal(explicit['log.roll.ms'], 500);
  assert.equal(explicit['log.flush.interval.ms'], 10);
  rejects({ 'log.roll.hours': '0' }, 'log.roll.hours');
});

test('node.id and broker.id follow each other and must agree', () => {
  assert.equal(resolveBrokerConfig({ 'node.id': '7' })['broker.id'], 7);
  assert.equal(resolveBrokerConfig({ 'broker.id': '8' })['node.id'], 8);
  assert.equal(resolveBrokerConfig({ 'broker.id': '9', 'node.id': '9' })['node.id'], 9);
  assert.match(rejects({ 'broker.id': '2', 'node.id': '3' }, 'broker.id'), /node\.id/);
  rejects({ 'node.id': '-1' }, 'node.id');
});

test('log.dir is used when log.dirs is unset; log.dirs splits on commas', () => {
  assert.deepEqual(resolveBrokerConfig({ 'log.dir': '/tmp/one' })['log.dirs'], ['/tmp/one']);
  assert.deepEqual(resolveBrokerConfig({ 'log.dir': '/tmp/one', 'log.dirs': '/a, /b' })['log.dirs'], ['/a', '/b']);
  rejects({ 'log.dirs': ' , ' }, 'log.dirs');
});

test('listeners are checked against the security protocol map', () => {
  const config = resolveBrokerConfig({ listeners: 'CLIENT://:9092,PLAINTEXT://127.0.0.1:9093', 'listener.security.protocol.map': 'CLIENT:PLAINTEXT,PLAINTEXT:PLAINTEXT' });
  assert.deepEqual(config['listeners'], ['CLIENT://:9092', 'PLAINTEXT://127.0.0.1:9093']);
  assert.deepEqual(resolveBrokerConfig({ listeners: 'SSL://:9093' })['listeners'], ['SSL://:9093']);
  assert.deepEqual(resolveBrokerConfig({ listeners: 'SASL_SSL://:9093' })['listeners'], ['SASL_SSL://:9093']);
  assert.match(rejects({ listeners: 'localhost:9092' }, 'listeners'), /NAME:\/\/host:port/);
  rejects({ listeners: '' }, 'listeners');
  rejects({ 'listener.security.protocol.map': 'PLAINTEXT:CLEARTEXT' }, 'listener.security.protocol.map');
});

test('advertised listeners must be routable and named among the listeners', () => {
  const config = resolveBrokerConfig({ listeners: 'PLAINTEXT://0.0.0.0:9092', 'advertised.listeners': 'PLAINTEXT://broker.example:19092' });
  assert.deepEqual(config['advertised.listeners'], ['PLAINTEXT://broker.example:19092']);
  assert.match(rejects({ listeners: 'PLAINTEXT://0.0.0.0:9092', 'advertised.listeners': 'PLAINTEXT://0.0.0.0:9092' }, 'advertised.listeners'), /0\.0\.0\.0/);
  assert.match(rejects({ 'advertised.listeners': 'OTHER://host:1', 'listener.security.protocol.map': 'OTHER:PLAINTEXT,PLAINTEXT:PLAINTEXT' }, 'advertised.listeners'), /OTHER/);
});

test('an empty advertised.listeners means unset: the listeners are advertised', () => {
  assert.equal(resolveBrokerConfig({ 'advertised.listeners': '' })['advertised.listeners'], null);
});

test('consumer-group defaults must lie within their bounds', () => {
  rejects({ 'group.consumer.session.timeout.ms': '1000' }, 'group.consumer.session.timeout.ms');
  rejects({ 'group.consumer.heartbeat.interval.ms': '50000', 'group.consumer.max.heartbeat.interval.ms': '60000' }, 'group.consumer.heartbeat.interval.ms');
});

test('the resolved config is frozen', () => {
  const config = defaultBrokerConfig();
  assert.ok(Object.isFrozen(config));
});

test("group.coordinator.rebalance.protocols without classic is refused at start-up, as Kafka 4.3.1's KafkaConfig does", () => {
  // Kafka: ConfigException "Disabling the 'classic' protocol is not supported." (the broker does not start).
  for (const value of ['consumer', 'consumer,streams']) {
    const message = rejects({ 'group.coordinator.rebalance.protocols': value }, 'group.coordinator.rebalance.protocols');
    assert.equal(message, `Invalid value ${value} for configuration group.coordinator.rebalance.protocols: ` +
      "Disabling the 'classic' protocol is not supported.");
  }
  assert.deepEqual(resolveBrokerConfig({ 'group.coordinator.rebalance.protocols': 'classic' })['group.coordinator.rebalance.protocols'], ['classic']);
});

test('authorizer.class.name: empty or StandardAuthorizer; super.users and allow.everyone.if.no.acl.found kept for the authorizer', async () => {
  const { authorizerSettingsOf } = await import('../../src/config/index.js');
  const { authorizerSettingsFrom } = await import('../../src/security/authorizer/standard-authorizer.js');
  assert.match(rejects({ 'authorizer.class.name': 'org.example.Auth' }, 'authorizer.class.name'), /expects a string in empty or org\.apache\.kafka\.metadata\.authorizer\.StandardAuthorizer$/);
  const warnings: string[] = [];
  const config = resolveBrokerConfig({
    'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer', 'super.users': 'User:admin; User:ops ;', 'allow.everyone.if.no.acl.found': ' TRUE',
  }, (w) => warnings.push(w));
  assert.deepEqual(warnings, []);
  assert.deepEqual(authorizerSettingsOf(config), { 'super.users': 'User:admin; User:ops ;', 'allow.everyone.if.no.acl.found': ' TRUE' });
  assert.deepEqual(authorizerSettingsFrom(config), { superUsers: ['User:admin', 'User:ops'], allowEveryoneIfNoAclFound: true });
  assert.equal(authorizerSettingsFrom(defaultBrokerConfig()), null);
  assert.throws(() => authorizerSettingsFrom(resolveBrokerConfig({ 'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer', 'super.users': 'admin' })),
    /super\.users: expected a string in format principalType:principalName but got admin/);
});
