// The deferred logger: pino is created only for a line at an enabled level, and once created the lines,
// bindings and levels are pino's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { deferredLog, silentLog } from '../src/log.js';

/** A deferred logger writing JSON lines to an array, and how many times its pino logger was created. */
function capture(level: Parameters<typeof deferredLog>[0]) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  let created = 0;
  const log = deferredLog(level, (p): Logger => {
    created += 1;
    return p.pino({ level, base: undefined, timestamp: false }, sink);
  });
  return { log, lines, created: () => created };
}

test('nothing below the level creates pino; the first enabled line does, once', () => {
  const c = capture('warn');
  const child = c.log.child({ component: 'x' });
  c.log.info('not written');
  child.debug({ a: 1 }, 'not written');
  assert.equal(c.created(), 0);
  c.log.warn('first');
  child.error({ a: 1 }, 'second');
  c.log.fatal('third');
  assert.equal(c.created(), 1);
  assert.deepEqual(c.lines.map((l) => [l.level, l.msg, l.component, l.a]), [
    [40, 'first', undefined, undefined],
    [50, 'second', 'x', 1],
    [60, 'third', undefined, undefined],
  ]);
});

test('a child follows its parent level until it has one of its own, before and after pino exists', () => {
  const c = capture('info');
  const child = c.log.child({ c: 1 });
  const own = c.log.child({ c: 2 });
  own.level = 'error';
  c.log.level = 'debug';
  assert.equal(child.level, 'debug');
  assert.equal(own.level, 'error');
  child.debug('child at debug');
  own.warn('own stays at error');
  c.log.level = 'warn';
  child.info('now below its parent level');
  own.level = 'info';
  own.info('own at info');
  assert.deepEqual(c.lines.map((l) => [l.c, l.msg]), [[1, 'child at debug'], [2, 'own at info']]);
});

test('grandchildren carry every binding; an unknown level is refused', () => {
  const c = capture('trace');
  c.log.child({ a: 1 }).child({ b: 2 }).trace('deep');
  assert.deepEqual([c.lines[0]!.a, c.lines[0]!.b, c.lines[0]!.msg], [1, 2, 'deep']);
  assert.throws(() => {
    c.log.level = 'loud';
  }, /unknown log level loud/);
  assert.throws(() => {
    c.log.level = 'toString';
  }, /unknown log level toString/);
});

test('a silent logger never creates pino', () => {
  const c = capture('silent');
  c.log.fatal('nowhere');
  c.log.child({}).error({ err: new Error('x') }, 'nowhere');
  assert.equal(c.created(), 0);
  assert.equal(silentLog().level, 'silent');
});
