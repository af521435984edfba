// The command line read without yargs must be read exactly as yargs reads it; anything else goes to yargs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCommand } from '../../src/cli/command.js';
import { parseStartFast, toStartArguments, type StartOptions } from '../../src/cli/start-options.js';
import { UsageError } from '../../src/cli/config-sources.js';

async function yargsReads(argv: string[]): Promise<StartOptions> {
  let read: StartOptions | undefined;
  await runCommand(argv, async (options) => {
    read = options;
  });
  assert.ok(read !== undefined, `yargs started nothing for ${argv.join(' ')}`);
  return read;
}

/** Drops the keys yargs sets to undefined, so the two readings compare by what they hold. */
function defined(options: StartOptions): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

const ACCEPTED: string[][] = [
  [],
  ['start'],
  ['--port', '9092', '--data-dir', '/tmp/d', '--log-level', 'warn', '--log-format', 'json'],
  ['start', '-p', '0', '-d', 'data', '--in-memory'],
  ['--port=19092', '--host=0.0.0.0', '--data-dir=/var/lib/gregor'],
  ['-c', 'server.properties', '--override', 'num.partitions=3', '-o', 'a.b=c=d', '--override=log.retention.ms=1'],
  ['--listeners', 'PLAINTEXT://:9092,INTERNAL://:9093', '--advertised-listeners', 'PLAINTEXT://broker:9092'],
  ['--config', 'x.properties', '--log-level', 'silent', '--log-format', 'pretty', '--in-memory', '--port', '70000'],
  ['--p', '1', '--d', 'x'],
];

for (const argv of ACCEPTED) {
  test(`read as yargs reads it: ${JSON.stringify(argv)}`, async () => {
    const fast = parseStartFast(argv);
    assert.ok(fast !== null, 'read without yargs');
    assert.deepEqual(defined(fast), defined(await yargsReads(argv)));
  });
}

const LEFT_TO_YARGS: string[][] = [
  ['--help'], ['-h'], ['--version'], ['-V'], ['--list-configs'], ['stop'], ['--bogus'], ['--port'], ['--port', '--host', 'x'],
  ['--port', '1', '--port', '2'], ['-p', '1', '--port', '2'], ['--override', 'a=1', 'b=2'], ['--override'], ['--host='],
  ['--in-memory', 'true'], ['--in-memory=false'], ['--no-in-memory'], ['--log-level', 'loud'], ['--log-format=xml'],
  ['-pd', 'x'], ['-p=1'], ['--', '--port', '1'], ['start', 'start'], ['--port', '-1'], ['--dataDir', 'x'], ['--override.x', 'y'],
];

test('anything unusual is left to yargs', () => {
  for (const argv of LEFT_TO_YARGS) assert.equal(parseStartFast(argv), null, JSON.stringify(argv));
});

test('start arguments: a bad port is a usage error; overrides and shortcuts pass through', () => {
  assert.throws(() => toStartArguments({ port: '70000', 'log-level': 'info', 'log-format': 'auto' }), UsageError);
  assert.throws(() => toStartArguments({ port: 'x', 'log-level': 'info', 'log-format': 'auto' }), /--port/);
  const args = toStartArguments(parseStartFast(['-p', '0', '-o', 'a=1', '--in-memory', '--log-level', 'warn'])!);
  assert.deepEqual(args.overrides, ['a=1']);
  assert.equal(args.shortcuts.port, 0);
  assert.equal(args.shortcuts.inMemory, true);
  assert.equal(args.logLevel, 'warn');
  assert.equal(args.logFormat, 'auto');
});
