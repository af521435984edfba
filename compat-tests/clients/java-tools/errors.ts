// The stock tools' error cases: what each tool reports when Kafka refuses.
import assert from 'node:assert/strict';
import { reportedException, tool, toolFails } from '../../lib/tools.js';
import { pass, type Outcome, type ScenarioContext } from '../../runner/types.js';
import { topics } from './common.js';

const bootstrapArgs = (context: ScenarioContext): string[] => ['--bootstrap-server', context.target.bootstrap];

export async function errorUnknownTopic(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('missing');
  const described = await toolFails('kafka-topics', [...bootstrapArgs(context), '--describe', '--topic', topic]);
  context.observe('describe', described.stderr.trim().split('\n')[0]?.replace(topic, '<topic>'));
  const partitions = await toolFails('kafka-topics', [...bootstrapArgs(context), '--alter', '--topic', topic, '--partitions', '2']);
  context.observe('add-partitions', partitions.stderr.trim().split('\n')[0]?.replace(topic, '<topic>'));
  const deleted = await toolFails('kafka-topics', [...bootstrapArgs(context), '--delete', '--topic', topic]);
  context.observe('delete', deleted.stderr.trim().split('\n')[0]?.replace(topic, '<topic>'));
  assert.ok(!(await topics(context, '--list')).split('\n').includes(topic), 'the topic was not created');
  return pass;
}

export async function errorMessageTooLarge(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  await topics(context, '--create', '--topic', topic, '--partitions', '1', '--config', 'max.message.bytes=2000');
  // max.request.size raised so the broker, not the client, judges the size.
  const refused = await toolFails('kafka-console-producer', [...bootstrapArgs(context), '--topic', topic,
    '--command-property', 'max.request.size=4194304', '--command-property', 'retries=0', '--sync'], `${'x'.repeat(3000)}\n`);
  context.observe('over-topic-limit', reportedException(refused));
  await tool('kafka-console-producer', [...bootstrapArgs(context), '--topic', topic, '--sync'], `${'x'.repeat(1000)}\n`);
  const end = await tool('kafka-get-offsets', [...bootstrapArgs(context), '--topic', topic]);
  assert.equal(end.trim(), `${topic}:0:1`, 'only the small record was written');
  return pass;
}

export async function errorInvalidTopic(context: ScenarioContext): Promise<Outcome> {
  for (const [key, name] of [['space-and-bang', 'bad name!'], ['dot', '.'], ['250-chars', 'x'.repeat(250)]] as const) {
    const result = await toolFails('kafka-topics', [...bootstrapArgs(context), '--create', '--topic', name]);
    context.observe(key, reportedException(result));
  }
  const zero = await toolFails('kafka-topics', [...bootstrapArgs(context), '--create', '--topic', context.name('zero'), '--partitions', '0']);
  context.observe('zero-partitions', reportedException(zero));
  return pass;
}

export async function errorInvalidConfig(context: ScenarioContext): Promise<Outcome> {
  const topic = context.name('topic');
  const create = (config: string) => toolFails('kafka-topics', [...bootstrapArgs(context), '--create', '--topic', topic, '--config', config]);
  const badValue = await create('cleanup.policy=bogus');
  context.observe('create-bad-value', reportedException(badValue));
  context.observe('create-bad-value-message', badValue.stderr.trim().split('\n')[0]);
  context.observe('create-bad-number', reportedException(await create('retention.ms=abc')));
  context.observe('create-unknown-name', reportedException(await create('no.such.config=1')));
  assert.ok(!(await topics(context, '--list')).split('\n').includes(topic), 'a refused topic is not created');
  await topics(context, '--create', '--topic', topic);
  const altered = await toolFails('kafka-configs', [...bootstrapArgs(context), '--entity-type', 'topics', '--entity-name', topic,
    '--alter', '--add-config', 'retention.ms=abc']);
  context.observe('alter-bad-value', reportedException(altered));
  return pass;
}
