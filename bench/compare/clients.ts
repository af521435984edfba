// The client programs the benchmark drives, identical for both brokers: Kafka's kafka-producer-perf-test and
// kafka-consumer-perf-test, a librdkafka producer (confluent-kafka), and a Java end-to-end latency probe.
// Each returns parsed figures; parsing is separate so it can be tested on captured output.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { binDir, cacheDir, repoRoot } from '../../compat-tests/lib/paths.js';
import { runCommand, describeFailure } from '../../compat-tests/lib/command.js';

const exec = promisify(execFile);
const KAFKA_LIBS = join(cacheDir, 'kafka-4.3.1', 'libs');
const PYTHON = join(cacheDir, 'py', 'venv', 'bin', 'python');
const benchDir = join(repoRoot, 'bench');
const classesDir = join(benchDir, '.cache', 'classes');
/** The tools' launcher runs C1 only (quick start); a throughput client wants C2 so the client is not the limit. */
const TOOL_ENV = { ...process.env, KAFKA_JAVA_OPTS: '-XX:TieredStopAtLevel=4' };

export interface ProduceCase {
  recordSize: number;
  acks: '1' | 'all';
  compression: 'none' | 'lz4';
  partitions: number;
}

export interface ProduceResult {
  recordsPerSecond: number;
  /** Record payload bytes per second, MB/s (10^6 bytes). */
  mbPerSecond: number;
}

/** The final summary line of kafka-producer-perf-test: "N records sent, R records/sec (M MB/sec), ...". */
export function parseProducerPerf(output: string, recordSize: number): ProduceResult {
  const lines = output.trim().split('\n').filter((line) => /records sent, [\d.]+ records\/sec/.test(line));
  const last = lines[lines.length - 1];
  const match = last === undefined ? null : /^(\d+) records sent, ([\d.]+) records\/sec .*99\.9th\.?$/.exec(last.trim());
  if (match === null) throw new Error(`no summary line in kafka-producer-perf-test output: ${output.trim().split('\n').slice(-2).join(' | ')}`);
  const recordsPerSecond = Number(match[2]);
  return { recordsPerSecond, mbPerSecond: (recordsPerSecond * recordSize) / 1e6 };
}

export async function producerPerfTest(bootstrap: string, topic: string, records: number, c: ProduceCase): Promise<ProduceResult> {
  const result = await runCommand(join(binDir, 'kafka-producer-perf-test'), [
    '--topic', topic, '--num-records', String(records), '--record-size', String(c.recordSize), '--throughput', '-1',
    '--command-property', `bootstrap.servers=${bootstrap}`, `acks=${c.acks}`, 'batch.size=65536', 'linger.ms=5',
    `compression.type=${c.compression}`, 'enable.idempotence=false',
  ], { env: TOOL_ENV, timeoutMs: 30 * 60_000 });
  if (result.code !== 0) throw new Error(describeFailure('kafka-producer-perf-test', result));
  return parseProducerPerf(result.stdout, c.recordSize);
}

/** confluent-kafka producer program's one JSON line. */
export function parseRdkafkaProducer(output: string): ProduceResult {
  const line = output.trim().split('\n').pop() ?? '';
  const parsed = JSON.parse(line) as { records: number; bytes: number; seconds: number; errors: number };
  if (parsed.errors !== 0) throw new Error(`librdkafka producer: ${parsed.errors} records not delivered`);
  return { recordsPerSecond: parsed.records / parsed.seconds, mbPerSecond: parsed.bytes / 1e6 / parsed.seconds };
}

export async function rdkafkaProducer(bootstrap: string, topic: string, records: number, c: ProduceCase): Promise<ProduceResult> {
  if (!existsSync(PYTHON)) await exec(join(repoRoot, 'compat-tests', 'clients', 'python', 'install.sh'));
  const result = await runCommand(PYTHON, [
    join(benchDir, 'clients', 'rdkafka_producer.py'), bootstrap, topic, String(records), String(c.recordSize), c.acks === 'all' ? '-1' : '1',
    c.compression, 'batch.size=65536', 'linger.ms=5',
  ], { timeoutMs: 30 * 60_000 });
  if (result.code !== 0) throw new Error(describeFailure('librdkafka producer', result));
  return parseRdkafkaProducer(result.stdout);
}

export interface ConsumeResult {
  /** MB/s (10^6) over the fetch time, group join excluded (the tool's fetch.MB.sec, which counts MiB). */
  mbPerSecond: number;
  records: number;
  /** Bytes consumed (10^6). */
  megabytes: number;
}

/** kafka-consumer-perf-test's CSV: a header line starting "start.time", then one line of values. */
export function parseConsumerPerf(output: string): ConsumeResult {
  const lines = output.trim().split('\n');
  const header = lines.findIndex((line) => line.startsWith('start.time'));
  const values = header < 0 ? undefined : lines[header + 1];
  if (values === undefined) throw new Error(`no result line in kafka-consumer-perf-test output: ${lines.slice(-2).join(' | ')}`);
  const names = lines[header]!.split(',').map((s) => s.trim());
  const fields = values.split(',').map((s) => s.trim());
  const field = (name: string) => Number(fields[names.indexOf(name)]);
  const mib = 1024 * 1024;
  return {
    mbPerSecond: (field('fetch.MB.sec') * mib) / 1e6,
    records: field('data.consumed.in.nMsg'),
    megabytes: (field('data.consumed.in.MB') * mib) / 1e6,
  };
}

export async function consumerPerfTest(bootstrap: string, topic: string, records: number): Promise<ConsumeResult> {
  const result = await runCommand(join(binDir, 'kafka-consumer-perf-test'), [
    '--bootstrap-server', bootstrap, '--topic', topic, '--num-records', String(records), '--timeout', '60000',
  ], { env: TOOL_ENV, timeoutMs: 30 * 60_000 });
  if (result.code !== 0) throw new Error(describeFailure('kafka-consumer-perf-test', result));
  const parsed = parseConsumerPerf(result.stdout);
  if (parsed.records < records) throw new Error(`kafka-consumer-perf-test read ${parsed.records} of ${records} records`);
  return parsed;
}

export interface LatencyResult {
  count: number;
  lost: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
}

/** EndToEndLatency's line: "count=N lost=N p50_ms=X p99_ms=X p999_ms=X max_ms=X". */
export function parseLatency(output: string): LatencyResult {
  const line = output.trim().split('\n').find((l) => l.startsWith('count=')) ?? '';
  const value = (name: string) => {
    const match = new RegExp(`(?:^| )${name}=([\\d.]+)`).exec(line);
    if (match === null) throw new Error(`no ${name} in end-to-end latency output: ${output.trim().split('\n').slice(-2).join(' | ')}`);
    return Number(match[1]);
  };
  return { count: value('count'), lost: value('lost'), p50Ms: value('p50_ms'), p99Ms: value('p99_ms'), p999Ms: value('p999_ms') };
}

/** Compiles bench/clients/EndToEndLatency.java against Kafka's client jars once (into bench/.cache). */
async function latencyClasses(): Promise<string> {
  const source = join(benchDir, 'clients', 'EndToEndLatency.java');
  const compiled = join(classesDir, 'EndToEndLatency.class');
  if (!existsSync(compiled) || statSync(compiled).mtimeMs < statSync(source).mtimeMs) {
    mkdirSync(classesDir, { recursive: true });
    await exec('javac', ['-cp', `${KAFKA_LIBS}/*`, '-d', classesDir, source]);
  }
  return classesDir;
}

export async function endToEndLatency(bootstrap: string, topic: string, ratePerSecond: number, seconds: number, recordSize: number): Promise<LatencyResult> {
  const classes = await latencyClasses();
  const result = await runCommand('java', [
    `-Dlog4j2.configurationFile=${join(repoRoot, 'compat-tests', 'reference', 'log4j2-tools.xml')}`, '-Xmx512m',
    '-cp', `${classes}:${KAFKA_LIBS}/*`, 'EndToEndLatency', bootstrap, topic, String(ratePerSecond), String(seconds), String(recordSize), '1',
  ], { timeoutMs: (seconds + 120) * 1000 });
  if (result.code !== 0) throw new Error(describeFailure('end-to-end latency', result));
  return parseLatency(result.stdout);
}
