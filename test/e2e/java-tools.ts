// Apache Kafka 4.3.1's own command-line tools (compat-tests/bin launchers over the jars that
// compat-tests/reference/install.sh fetches from Maven Central) for the e2e tests.
import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { startTestBroker } from '../server/broker-harness.js';

const COMPAT = resolve('compat-tests');
const TOOL_TIMEOUT_MS = 120_000;

/** Installs the jars once; a no-op when they are present. */
export function installJavaTools(): void {
  const install = spawnSync(join(COMPAT, 'reference', 'install.sh'), { encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`compat-tests/reference/install.sh failed: ${install.stderr}`);
}

type TestBroker = Awaited<ReturnType<typeof startTestBroker>>;

/**
 * One in-process broker for a test file's tool runs (call at the file's top level): the tools installed and the
 * broker started before its tests, closed after them. Read `broker` and `bootstrap` inside the tests.
 */
export function sharedToolsBroker(settings: Record<string, string> = { 'node.id': '1' }): { readonly broker: TestBroker; readonly bootstrap: string } {
  let started: TestBroker | undefined;
  before(async () => {
    installJavaTools();
    started = await startTestBroker(settings);
  });
  after(async () => {
    await started?.close();
  });
  const broker = (): TestBroker => {
    if (started === undefined) throw new Error('the shared broker starts in before()');
    return started;
  };
  return {
    get broker() {
      return broker();
    },
    get bootstrap() {
      return `127.0.0.1:${broker().port}`;
    },
  };
}

export interface ToolRun {
  readonly stdout: string;
  readonly stderr: string;
  /** Exit code; null when the tool was killed after TOOL_TIMEOUT_MS. */
  readonly code: number | null;
}

/** Runs `compat-tests/bin/<tool> args`, feeding `input` on stdin; resolves whatever the exit code. */
export function runJavaTool(tool: string, args: readonly string[], input = ''): Promise<ToolRun> {
  return runCommand(join(COMPAT, 'bin', tool), args, input);
}

/** Runs a single-file Java program (test/e2e/java/*.java) over Kafka 4.3.1's jars; a non-zero exit is an error. */
export async function runJavaProgramOk(source: string, args: readonly string[], input = ''): Promise<string> {
  const run = await runCommand('java', ['-cp', `${resolve(COMPAT, '.cache/kafka-4.3.1/libs')}/*`, resolve(source), ...args], input);
  if (run.code !== 0) throw new Error(`${source} exited ${run.code}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return run.stdout;
}

function runCommand(command: string, args: readonly string[], input: string): Promise<ToolRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), TOOL_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ stdout, stderr, code });
    });
    child.stdin.end(input);
  });
}

/** Like runJavaTool, but a non-zero exit is an error naming the tool and the end of its stderr. */
export async function runJavaToolOk(tool: string, args: readonly string[], input = ''): Promise<string> {
  const run = await runJavaTool(tool, args, input);
  if (run.code !== 0) throw new Error(`${tool} exited ${run.code}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return run.stdout;
}
