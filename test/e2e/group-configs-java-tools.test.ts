// Kafka 4.3.1's kafka-configs --entity-type groups / client-metrics and kafka-client-metrics against gregor: each
// command prints what it printed against a Kafka 4.3.1 broker given the same commands (compat-tests/reference).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runJavaTool, runJavaToolOk, sharedToolsBroker } from './java-tools.js';

const tools = sharedToolsBroker();

const configs = (...args: string[]) => runJavaToolOk('kafka-configs', ['--bootstrap-server', tools.bootstrap, ...args]);
const clientMetrics = (...args: string[]) => runJavaToolOk('kafka-run-class', ['org.apache.kafka.tools.ClientMetricsCommand', '--bootstrap-server', tools.bootstrap, ...args]);

test('kafka-configs --entity-type groups: describe, alter, refuse, delete, describe --all', async () => {
  const group = ['--entity-type', 'groups', '--entity-name', 'tg'];
  assert.equal(await configs(...group, '--describe'), "The group 'tg' doesn't exist and doesn't have dynamic config.\n");
  assert.equal(await configs(...group, '--alter', '--add-config', 'consumer.session.timeout.ms=50000,share.isolation.level=read_committed'),
    'Completed updating config for group tg.\n');
  assert.equal(await configs(...group, '--describe'), [
    'Dynamic configs for group tg are:',
    '  consumer.session.timeout.ms=50000 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:consumer.session.timeout.ms=50000, DEFAULT_CONFIG:group.consumer.session.timeout.ms=45000}',
    '  share.isolation.level=read_committed sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:share.isolation.level=read_committed, DEFAULT_CONFIG:share.isolation.level=read_uncommitted}',
    '',
  ].join('\n'));

  const tooShort = await runJavaTool('kafka-configs', ['--bootstrap-server', tools.bootstrap, ...group, '--alter', '--add-config', 'consumer.session.timeout.ms=1000']);
  assert.equal(tooShort.code, 1);
  assert.match(tooShort.stderr, /InvalidConfigurationException: consumer\.session\.timeout\.ms must be greater than or equal to group\.consumer\.min\.session\.timeout\.ms\n/);
  const unknown = await runJavaTool('kafka-configs', ['--bootstrap-server', tools.bootstrap, ...group, '--alter', '--add-config', 'nope=1']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /InvalidConfigurationException: Unknown group config name: nope\n/);

  assert.equal(await configs(...group, '--alter', '--delete-config', 'share.isolation.level'), 'Completed updating config for group tg.\n');
  assert.equal(await configs(...group, '--describe', '--all'), [
    'All configs for group tg are:',
    '  consumer.assignment.interval.ms=1000 sensitive=false synonyms={DEFAULT_CONFIG:group.consumer.assignment.interval.ms=1000}',
    '  consumer.heartbeat.interval.ms=5000 sensitive=false synonyms={DEFAULT_CONFIG:group.consumer.heartbeat.interval.ms=5000}',
    '  consumer.session.timeout.ms=50000 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:consumer.session.timeout.ms=50000, DEFAULT_CONFIG:group.consumer.session.timeout.ms=45000}',
    '  share.assignment.interval.ms=1000 sensitive=false synonyms={DEFAULT_CONFIG:group.share.assignment.interval.ms=1000}',
    '  share.auto.offset.reset=latest sensitive=false synonyms={DEFAULT_CONFIG:share.auto.offset.reset=latest}',
    '  share.delivery.count.limit=5 sensitive=false synonyms={DEFAULT_CONFIG:group.share.delivery.count.limit=5}',
    '  share.heartbeat.interval.ms=5000 sensitive=false synonyms={DEFAULT_CONFIG:group.share.heartbeat.interval.ms=5000}',
    '  share.isolation.level=read_uncommitted sensitive=false synonyms={DEFAULT_CONFIG:share.isolation.level=read_uncommitted}',
    '  share.partition.max.record.locks=2000 sensitive=false synonyms={DEFAULT_CONFIG:group.share.partition.max.record.locks=2000}',
    '  share.record.lock.duration.ms=30000 sensitive=false synonyms={DEFAULT_CONFIG:group.share.record.lock.duration.ms=30000}',
    '  share.renew.acknowledge.enable=true sensitive=false synonyms={DEFAULT_CONFIG:share.renew.acknowledge.enable=true}',
    '  share.session.timeout.ms=45000 sensitive=false synonyms={DEFAULT_CONFIG:group.share.session.timeout.ms=45000}',
    '  streams.assignment.interval.ms=1000 sensitive=false synonyms={DEFAULT_CONFIG:group.streams.assignment.interval.ms=1000}',
    '  streams.heartbeat.interval.ms=5000 sensitive=false synonyms={DEFAULT_CONFIG:group.streams.heartbeat.interval.ms=5000}',
    '  streams.initial.rebalance.delay.ms=3000 sensitive=false synonyms={DEFAULT_CONFIG:group.streams.initial.rebalance.delay.ms=3000}',
    '  streams.num.standby.replicas=0 sensitive=false synonyms={DEFAULT_CONFIG:group.streams.num.standby.replicas=0}',
    '  streams.session.timeout.ms=45000 sensitive=false synonyms={DEFAULT_CONFIG:group.streams.session.timeout.ms=45000}',
    '',
  ].join('\n'));
  // Without a name: every group with configs (and every group the coordinator lists).
  assert.equal(await configs('--entity-type', 'groups', '--describe'), [
    'Dynamic configs for group tg are:',
    '  consumer.session.timeout.ms=50000 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:consumer.session.timeout.ms=50000, DEFAULT_CONFIG:group.consumer.session.timeout.ms=45000}',
    '',
  ].join('\n'));
});

test('kafka-client-metrics and kafka-configs --entity-type client-metrics: alter, describe, list, delete', async () => {
  assert.equal(await clientMetrics('--alter', '--name', 'tm', '--metrics', 'org.apache.kafka.producer.,org.apache.kafka.consumer.',
    '--interval', '2000', '--match', 'client_id=abc'), 'Altered client metrics config for tm.\n');
  assert.equal(await clientMetrics('--describe', '--name', 'tm'), [
    'Client metrics configs for tm are:', '  interval.ms=2000', '  match=client_id=abc', '  metrics=org.apache.kafka.producer.,org.apache.kafka.consumer.', '',
  ].join('\n'));
  assert.equal(await clientMetrics('--describe', '--name', 'nosuch'), "The client metric resource nosuch doesn't exist and doesn't have dynamic config.\n");
  assert.equal(await clientMetrics('--list'), 'tm\n');
  const entity = ['--entity-type', 'client-metrics', '--entity-name', 'tm'];
  assert.equal(await configs('--entity-type', 'client-metrics', '--entity-name', 'nosuch', '--describe'),
    "The client-metric 'nosuch' doesn't exist and doesn't have dynamic config.\n");
  assert.equal(await configs(...entity, '--alter', '--delete-config', 'interval.ms'), 'Completed updating config for client-metric tm.\n');
  assert.equal(await configs(...entity, '--describe', '--all'), [
    'All configs for client-metric tm are:',
    '  interval.ms=300000 sensitive=false synonyms={}',
    '  match=client_id=abc sensitive=false synonyms={DYNAMIC_CLIENT_METRICS_CONFIG:match=client_id=abc}',
    '  metrics=org.apache.kafka.producer.,org.apache.kafka.consumer. sensitive=false synonyms={DYNAMIC_CLIENT_METRICS_CONFIG:metrics=org.apache.kafka.producer.,org.apache.kafka.consumer.}',
    '',
  ].join('\n'));
  assert.equal(await clientMetrics('--delete', '--name', 'tm'), 'Deleted client metrics config for tm.\n');
  // The tool joins the names and prints the line, empty or not.
  assert.equal(await clientMetrics('--list'), '\n');
});
