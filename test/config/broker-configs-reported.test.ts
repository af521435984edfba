import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  brokerConfigDefinition, brokerConfigDefinitions, CONFIG_TYPE_IDS, ConfigDescriber, ConfigError, ConfigSourceId as Source,
  defaultBrokerConfig, formatConfigValue, resolveBrokerConfig, type ConfigDefinition, type ConfigEntry,
} from '../../src/config/index.js';
import { actedOnBrokerConfigDefinitions } from '../../src/config/broker-configs.js';
import { reportedBrokerConfigDefinitions } from '../../src/config/broker-configs-reported.js';
import { KAFKA_4_3_1_BROKER_CONFIGS } from '../fixtures/config/kafka-4.3.1-broker-configs.js';

/** Keys Kafka requires (no default of its own), for which gregor supplies one. */
const REQUIRED_IN_KAFKA = new Set(['node.id', 'process.roles', 'controller.listener.names']);

function byName(entries: ConfigEntry[]): Map<string, ConfigEntry> {
  return new Map(entries.map((e) => [e.name, e]));
}

const described = byName(new ConfigDescriber(defaultBrokerConfig()).brokerEntries(true));

test('a BROKER resource lists exactly Kafka 4.3.1\'s broker configs, plus gregor\'s own gregor.* keys', () => {
  const kafkaNames = KAFKA_4_3_1_BROKER_CONFIGS.map(([name]) => name);
  assert.equal(kafkaNames.length, 340);
  const missing = kafkaNames.filter((name) => !described.has(name));
  assert.deepEqual(missing, []);
  const extra = [...described.keys()].filter((name) => !kafkaNames.includes(name));
  assert.deepEqual(extra.sort(), ['gregor.clock', 'gregor.cluster.etcd.endpoints', 'gregor.cluster.name', 'gregor.http.listeners', 'gregor.log.engine', 'gregor.schema.registry.listeners']);
});

test('Kafka\'s internal share coordinator timer keys are accepted and checked, never listed', () => {
  const warnings: string[] = [];
  const config = resolveBrokerConfig({ 'share.coordinator.state.topic.prune.interval.ms': '1000', 'share.coordinator.cold.partition.snapshot.interval.ms': '2000' }, (w) => warnings.push(w));
  assert.deepEqual(warnings, []);
  assert.deepEqual([config['share.coordinator.state.topic.prune.interval.ms'], config['share.coordinator.cold.partition.snapshot.interval.ms']], [1000, 2000]);
  assert.deepEqual([defaultBrokerConfig()['share.coordinator.state.topic.prune.interval.ms'], defaultBrokerConfig()['share.coordinator.cold.partition.snapshot.interval.ms']], [300000, 300000]);
  assert.throws(() => resolveBrokerConfig({ 'share.coordinator.state.topic.prune.interval.ms': '0' }), /share\.coordinator\.state\.topic\.prune\.interval\.ms/);
  const listed = byName(new ConfigDescriber(config).brokerEntries(true));
  assert.equal(listed.has('share.coordinator.state.topic.prune.interval.ms') || listed.has('share.coordinator.cold.partition.snapshot.interval.ms'), false);
});

test('the acted-on and reported tables do not overlap, and together are the definition table', () => {
  const acted = Object.keys(actedOnBrokerConfigDefinitions);
  const reported = Object.keys(reportedBrokerConfigDefinitions);
  assert.deepEqual(acted.filter((name) => reported.includes(name)), []);
  assert.equal(Object.keys(brokerConfigDefinitions).length, acted.length + reported.length);
});

test('each config has Kafka\'s type, update mode, read-only flag and sensitivity', () => {
  for (const [name, type, mode, sensitive] of KAFKA_4_3_1_BROKER_CONFIGS) {
    const entry = described.get(name)!;
    const def = brokerConfigDefinition(name) as ConfigDefinition;
    assert.equal(def.type, type, `${name} type`);
    assert.equal(entry.type, CONFIG_TYPE_IDS[type], `${name} type id`);
    assert.equal(def.updateMode, mode, `${name} update mode`);
    assert.equal(entry.readOnly, mode === 'read-only', `${name} read-only`);
    assert.equal(entry.sensitive, sensitive, `${name} sensitive`);
    assert.notEqual(entry.documentation.trim(), '', `${name} documentation`);
  }
});

test('each config\'s Kafka default is the value Kafka reports, and gregor\'s default differs only where it says so', () => {
  for (const [name, , , , kafkaValue] of KAFKA_4_3_1_BROKER_CONFIGS) {
    const def = brokerConfigDefinition(name) as ConfigDefinition;
    const kafkaDefault = def.kafkaDefault === undefined ? def.default : def.kafkaDefault;
    if (REQUIRED_IN_KAFKA.has(name)) {
      assert.equal(kafkaValue, null, `${name} has no default in Kafka`);
      continue;
    }
    assert.equal(def.sensitive ? null : formatConfigValue(def.type, kafkaDefault), kafkaValue, `${name} default`);
    // The DEFAULT_CONFIG synonym carries gregor's own default, as Kafka's carries Kafka's.
    const synonym = described.get(name)!.synonyms.find((s) => s.source === Source.DEFAULT_CONFIG);
    assert.equal(synonym?.value ?? null, def.sensitive ? null : formatConfigValue(def.type, def.default), `${name} default synonym`);
  }
});

test('a password config set in server.properties is reported hidden: null value, sensitive, a STATIC synonym with no value', () => {
  const entries = byName(new ConfigDescriber(resolveBrokerConfig({ 'ssl.keystore.password': 'secret' })).brokerEntries(true));
  const entry = entries.get('ssl.keystore.password')!;
  assert.equal(entry.value, null);
  assert.equal(entry.sensitive, true);
  assert.equal(entry.source, Source.STATIC_BROKER_CONFIG);
  assert.deepEqual(entry.synonyms, [{ name: 'ssl.keystore.password', value: null, source: Source.STATIC_BROKER_CONFIG }]);
  assert.equal(described.get('ssl.keystore.password')!.value, null);
  assert.deepEqual(described.get('ssl.keystore.password')!.synonyms, []);
});

test('listener.name.<l>.<key> settings are described as Kafka 4.3.1 describes them: read-only, the key\'s type and sensitivity, its synonyms', () => {
  const entries = byName(new ConfigDescriber(resolveBrokerConfig({
    'listener.name.ssl.ssl.client.auth': 'requested', 'listener.name.ssl.ssl.key.password': 'secret', 'ssl.truststore.type': 'PEM',
    'listener.name.ssl.ssl.truststore.type': 'PKCS12',
  })).brokerEntries(true));
  const entry = (name: string) => {
    const { name: n, value, source, readOnly, sensitive, synonyms } = entries.get(name)!;
    return { n, value, source, readOnly, sensitive, synonyms };
  };
  // What the reference broker answered (kafkajs describeConfigs, synonyms included).
  assert.deepEqual(entry('listener.name.ssl.ssl.client.auth'), {
    n: 'listener.name.ssl.ssl.client.auth', value: 'requested', source: Source.STATIC_BROKER_CONFIG, readOnly: true, sensitive: false,
    synonyms: [{ name: 'listener.name.ssl.ssl.client.auth', value: 'requested', source: Source.STATIC_BROKER_CONFIG },
      { name: 'ssl.client.auth', value: 'none', source: Source.DEFAULT_CONFIG }],
  });
  assert.deepEqual(entry('listener.name.ssl.ssl.key.password'), {
    n: 'listener.name.ssl.ssl.key.password', value: null, source: Source.STATIC_BROKER_CONFIG, readOnly: true, sensitive: true,
    synonyms: [{ name: 'listener.name.ssl.ssl.key.password', value: null, source: Source.STATIC_BROKER_CONFIG }],
  });
  assert.deepEqual(entry('listener.name.ssl.ssl.truststore.type').synonyms.map((s) => [s.name, s.value, s.source]), [
    ['listener.name.ssl.ssl.truststore.type', 'PKCS12', Source.STATIC_BROKER_CONFIG], ['ssl.truststore.type', 'PEM', Source.STATIC_BROKER_CONFIG],
    ['ssl.truststore.type', 'JKS', Source.DEFAULT_CONFIG],
  ]);
  assert.equal(entries.get('ssl.client.auth')!.value, 'none');
});

test('reported configs are accepted from properties and checked with Kafka\'s validators', () => {
  const entries = byName(new ConfigDescriber(resolveBrokerConfig({
    'controller.quorum.voters': '1@127.0.0.1:9093', 'sasl.enabled.mechanisms': 'PLAIN,SCRAM-SHA-256', 'group.share.max.size': '10',
  })).brokerEntries(true));
  assert.equal(entries.get('controller.quorum.voters')!.value, '1@127.0.0.1:9093');
  assert.equal(entries.get('controller.quorum.voters')!.source, Source.STATIC_BROKER_CONFIG);
  assert.equal(entries.get('sasl.enabled.mechanisms')!.value, 'PLAIN,SCRAM-SHA-256');
  assert.deepEqual(entries.get('group.share.max.size')!.synonyms.map((s) => [s.value, s.source]),
    [['10', Source.STATIC_BROKER_CONFIG], ['200', Source.DEFAULT_CONFIG]]);
  assert.throws(() => resolveBrokerConfig({ 'controller.quorum.voters': '127.0.0.1:9093' }), ConfigError);
  assert.throws(() => resolveBrokerConfig({ 'controller.quorum.bootstrap.servers': 'nohost' }), ConfigError);
  assert.throws(() => resolveBrokerConfig({ 'group.share.max.size': '1001' }), /group\.share\.max\.size.*\[1,\.\.\.,1000\]/);
  assert.throws(() => resolveBrokerConfig({ 'ssl.client.auth': 'maybe' }), ConfigError);
  assert.throws(() => resolveBrokerConfig({ 'remote.log.metadata.manager.impl.prefix': ' ' }), ConfigError);
  assert.throws(() => resolveBrokerConfig({ 'sasl.login.refresh.buffer.seconds': '40000' }), /16-bit/);
});

test('single-broker defaults: the share-group state topic has one replica, as the other internal topics', () => {
  assert.equal(described.get('share.coordinator.state.topic.replication.factor')!.value, '1');
  assert.equal(described.get('share.coordinator.state.topic.min.isr')!.value, '1');
});
