// Runs an external program (a stock Kafka tool, kcat, a client program) and collects its output.
// Never rejects: a scenario inspects the exit code and output itself.
import { spawn } from 'node:child_process';

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the time limit ended it. */
  timedOut: boolean;
}

export interface CommandOptions {
  /** Written to standard input, which is then closed. */
  input?: string | Buffer;
  /** A safety limit so a hung tool cannot hang the run; not an assertion about speed. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export function runCommand(command: string, args: readonly string[], options: CommandOptions = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 120_000);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on('error', () => {
      // The program may exit without reading its input; that is its answer, not ours to report.
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stdout: '', stderr: error.message, timedOut });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        timedOut,
      });
    });
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

/** One line describing a failed command, for a scenario's failure reason. */
export function describeFailure(what: string, result: CommandResult): string {
  if (result.timedOut) return `${what}: timed out`;
  const lastLines = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-3).join(' | ');
  return `${what}: exit ${result.code ?? result.signal}${lastLines ? `: ${lastLines}` : ''}`;
}
