// Kafka 4.3.1's own kafka-configs (compat-tests/bin) describes every config of an in-process gregor broker:
// it must list exactly the names a Kafka 4.3.1 broker lists (test/fixtures/config), with Kafka's
// sensitivity, and print each config gregor leaves at Kafka's default the way Kafka prints it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { brokerConfigDefinition, type ConfigDefinition } from '../../src/config/index.js';
import { startTestBroker } from '../server/broker-harness.js';
import { KAFKA_4_3_1_BROKER_CONFIGS } from '../fixtures/config/kafka-4.3.1-broker-configs.js';
import { installJavaTools, runJavaToolOk } from './java-tools.js';

/** Set by this test or the harness, or required in Kafka with a default supplied by gregor. */
const NOT_AT_KAFKA_DEFAULT = new Set(['listeners', 'node.id', 'process.roles', 'controller.listener.names']);

/** Kafka's storage format records min.insync.replicas as a cluster-wide dynamic default; gregor does the same. */
const FORMATTED_DYNAMIC_DEFAULTS = new Set(['min.insync.replicas']);

let broker: Awaited<ReturnType<typeof startTestBroker>>;

before(async () => {
  installJavaTools();
  broker = await startTestBroker({ 'node.id': '1' });
});

after(async () => {
  await broker?.close();
});

/** `  name=value sensitive=bool synonyms={...}` lines, by name. */
function parseDescribeAll(stdout: string): Map<string, string> {
  const lines = stdout.split('\n');
  assert.equal(lines[0], 'All configs for broker 1 are:');
  const out = new Map<string, string>();
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    const match = /^ {2}([^=\s]+)=/.exec(line);
    assert.ok(match !== null, `unexpected line ${JSON.stringify(line)}`);
    out.set(match[1]!, line);
  }
  return out;
}

test('kafka-configs --describe --all lists Kafka 4.3.1\'s broker configs, printed as Kafka prints its defaults', { timeout: 300_000 }, async () => {
  const stdout = await runJavaToolOk('kafka-configs', [
    '--bootstrap-server', `127.0.0.1:${broker.port}`, '--describe', '--all', '--entity-type', 'brokers', '--entity-name', '1',
  ]);
  const lines = parseDescribeAll(stdout);
  const kafkaNames = KAFKA_4_3_1_BROKER_CONFIGS.map(([name]) => name);
  assert.deepEqual(kafkaNames.filter((name) => !lines.has(name)), [], 'configs Kafka lists that gregor does not');
  assert.deepEqual([...lines.keys()].filter((name) => !kafkaNames.includes(name)), ['gregor.clock', 'gregor.cluster.etcd.endpoints', 'gregor.cluster.name', 'gregor.http.listeners', 'gregor.log.engine', 'gregor.schema.registry.listeners']);

  let compared = 0;
  for (const [name, , , sensitive, kafkaDefault] of KAFKA_4_3_1_BROKER_CONFIGS) {
    const line = lines.get(name)!;
    assert.ok(line.includes(` sensitive=${sensitive} `), `${name}: ${line}`);
    const def = brokerConfigDefinition(name) as ConfigDefinition;
    if (NOT_AT_KAFKA_DEFAULT.has(name) || def.kafkaDefault !== undefined) continue;
    let synonyms = kafkaDefault === null ? '' : `DEFAULT_CONFIG:${name}=${kafkaDefault}`;
    if (FORMATTED_DYNAMIC_DEFAULTS.has(name)) synonyms = `DYNAMIC_DEFAULT_BROKER_CONFIG:${name}=${kafkaDefault}, ${synonyms}`;
    assert.equal(line, `  ${name}=${kafkaDefault ?? 'null'} sensitive=${sensitive} synonyms={${synonyms}}`);
    compared++;
  }
  assert.ok(compared > 320, `only ${compared} lines compared`);
});
