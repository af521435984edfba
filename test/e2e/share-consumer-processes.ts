// Kafka 4.3.1 share consumers as processes of their own (test/e2e/java/ShareDoneWhen.java), for the e2e tests that
// SIGKILL one or stop the broker under one: each prints one fact a line, collected here as it comes.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { runJavaProgramOk } from './java-tools.js';

export const SHARE_PROGRAM = 'test/e2e/java/ShareDoneWhen.java';
const LIBS = `${resolve('compat-tests/.cache/kafka-4.3.1/libs')}/*`;

/** A one-partition topic with `records` records v0, v1, ... and the group's configs (share.auto.offset.reset earliest). */
export async function setUpShareTopic(bootstrap: string, topic: string, group: string, records: number, ...configs: string[]): Promise<void> {
  await runJavaProgramOk(SHARE_PROGRAM, ['setup', bootstrap, topic, group, String(records), ...configs]);
}

export interface Delivery {
  readonly offset: number;
  readonly deliveryCount: number;
}

export class ShareConsumerProcess {
  readonly got: Delivery[] = [];
  readonly acked: Delivery[] = [];
  readonly refused: string[] = [];
  /** The range it keeps acquired, unacknowledged (hold=N), once it holds it. */
  holding: [number, number] | undefined;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<number | null>;
  private stderr = '';
  private waiters: (() => void)[] = [];

  constructor(bootstrap: string, topic: string, group: string, readonly clientId: string, options: string[] = []) {
    this.child = spawn('java', ['-cp', LIBS, resolve(SHARE_PROGRAM), 'consume', bootstrap, topic, group, clientId, ...options]);
    let pending = '';
    this.child.stdout.on('data', (data: Buffer) => {
      pending += data.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) this.onLine(line);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr.on('data', (data: Buffer) => (this.stderr += data.toString()));
    this.exited = new Promise((resolveExit) => this.child.on('close', (code) => {
      resolveExit(code);
      for (const wake of this.waiters.splice(0)) wake();
    }));
  }

  private onLine(line: string): void {
    const [kind, a, b] = line.split(' ');
    if (kind === 'got') this.got.push({ offset: Number(a), deliveryCount: Number(b) });
    else if (kind === 'acked') this.acked.push({ offset: Number(a), deliveryCount: Number(b) });
    else if (kind === 'refused') this.refused.push(line);
    else if (kind === 'holding' && a !== 'none') this.holding = [Number(a), Number(b)];
  }

  /** Resolves once `done()` holds, checked at each line; rejects after `timeoutMs` or if the process ends first. */
  async until(done: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (this.child.exitCode !== null) throw new Error(`${this.clientId} exited ${this.child.exitCode} before ${what}: ${this.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      if (Date.now() > deadline) throw new Error(`${this.clientId}: no ${what} after ${timeoutMs} ms`);
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, 500);
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  /** SIGKILL of its JVM: nothing is sent, the broker sees the connection drop. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** Closes its consumer (stdin "stop") and waits for the process to end. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null) this.child.stdin.end('stop\n');
    const code = await this.exited;
    if (code !== 0) throw new Error(`${this.clientId} exited ${code}: ${this.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
}
