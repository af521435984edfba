// The web console in a real browser (Debian's chromium through playwright-core) against an in-process gregor with a
// kafkajs workload: every page shows what the clients did, the message browser finds a record by key, a reset of
// offsets made on the page is what kafka-consumer-groups --describe then prints, and a record produced on the
// page is read by a kafkajs consumer. Screenshots of every page go to test-artifacts/console/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { kafkaFor, until } from '../coordinator/kafkajs-group-helpers.js';
import { installJavaTools, runJavaToolOk } from './java-tools.js';
import { launchBrowser, openPage, screenshot, SCREENSHOTS, tableRows } from './console-browser.js';
import { startConsoleBroker, type ConsoleBroker } from '../http/console/console-harness.js';

let broker: ConsoleBroker;
let browser: Browser;
let page: Page;
let errors: string[];
/** Where the record keyed order-123 went. */
let needle: { partition: number; offset: number };

const ORDERS = 600;

before(async () => {
  installJavaTools();
  broker = await startConsoleBroker();
  const kafka = kafkaFor(broker.port, 'console-e2e');
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 3 }, { topic: 'inbox', numPartitions: 1 }, { topic: 'payments', numPartitions: 1 }] });
  await admin.disconnect();
  const producer = kafka.producer();
  await producer.connect();
  const order = (i: number) => ({ key: `order-${i}`, value: JSON.stringify({ id: i, amount: i * 3 }), headers: { source: 'e2e' } });
  for (let i = 0; i < ORDERS; i += 50) {
    await producer.send({ topic: 'orders', messages: Array.from({ length: 50 }, (_, j) => order(i + j)).filter((m) => m.key !== 'order-123') });
  }
  const [sent] = await producer.send({ topic: 'orders', messages: [order(123)] });
  needle = { partition: sent!.partition, offset: Number(sent!.baseOffset) };
  // The billing group reads everything and commits, 30 more arrive, then it leaves: Empty, with 30 of lag.
  const billing = kafka.consumer({ groupId: 'billing' });
  await billing.connect();
  await billing.subscribe({ topic: 'orders', fromBeginning: true });
  let consumed = 0;
  await billing.run({ autoCommitInterval: 100, eachMessage: async () => void consumed++ });
  await until(() => consumed === ORDERS, 'billing consumed every order');
  await billing.disconnect();
  await producer.send({ topic: 'orders', messages: Array.from({ length: 30 }, (_, j) => order(ORDERS + j)) });
  await producer.disconnect();
  const txn = kafka.producer({ transactionalId: 'payments-txn', idempotent: true, maxInFlightRequests: 1 });
  await txn.connect();
  const transaction = await txn.transaction();
  await transaction.send({ topic: 'payments', messages: [{ value: 'paid' }] });
  await transaction.commit();
  await txn.disconnect();

  browser = await launchBrowser();
  ({ page, errors } = await openPage(browser));
  console.error(`console screenshots: ${SCREENSHOTS}`);
});

after(async () => {
  await browser?.close();
  await broker?.close();
});

async function go(hash: string): Promise<void> {
  await page.goto(`${broker.base}/console/${hash}`);
}

/** Waits until the element's text is `expected` (the page polls the API). */
async function textBecomes(selector: string, expected: string): Promise<void> {
  await until(async () => (await page.locator(selector).innerText().catch(() => '')).trim() === expected, `${selector} shows ${expected}`);
}

test('overview: the cluster id, broker, topics and features', async () => {
  await go('#/');
  await textBecomes('#ov-cluster', broker.clusterId);
  const kafka = kafkaFor(broker.port, 'console-e2e');
  const admin = kafka.admin();
  await admin.connect();
  const topics = await admin.listTopics();
  await admin.disconnect();
  await textBecomes('#ov-topics', String(topics.length));
  assert.deepEqual(await tableRows(page, '#brokers'), [['1', 'PLAINTEXT', '127.0.0.1', String(broker.port), 'broker, controller']]);
  assert.deepEqual((await tableRows(page, '#features')).find((row) => row[0] === 'transaction.version'), ['transaction.version', '2', '0–2']);
  await screenshot(page, '01-overview');
  assert.deepEqual(errors, []);
});

test('topics: the list and a topic\'s partitions and configs as kafkajs sees them', async () => {
  const admin = kafkaFor(broker.port, 'console-e2e').admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets('orders');
  await admin.disconnect();
  await go('#/topics');
  await until(async () => (await tableRows(page, '#topics')).some((row) => row[0] === 'orders'), 'orders listed');
  const row = (await tableRows(page, '#topics')).find((r) => r[0] === 'orders')!;
  assert.deepEqual(row.slice(0, 3), ['orders', '3', String(ORDERS + 30)]);
  assert.deepEqual((await tableRows(page, '#topics')).map((r) => r[0]), ['inbox', 'orders', 'payments']);
  await screenshot(page, '02-topics');

  // Keyboard: j focuses the first row, again the second, Enter opens it.
  await page.locator('#topics tbody tr').first().waitFor();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await until(() => page.url().endsWith('#/topics/orders'), 'orders opened from the keyboard');

  await go('#/topics/orders/partitions');
  await until(async () => (await tableRows(page, '#partitions')).length === 3, 'three partitions');
  assert.deepEqual((await tableRows(page, '#partitions')).map((r) => [r[0], r[1], r[2], r[3]]),
    offsets.sort((a, b) => a.partition - b.partition).map((o) => [String(o.partition), '1', o.low, Number(o.high).toLocaleString('en-US')]));
  await screenshot(page, '03-topic-partitions');

  await go('#/topics/orders/configs');
  await until(async () => (await tableRows(page, '#configs')).some((r) => r[0] === 'retention.ms'), 'configs shown');
  assert.deepEqual((await tableRows(page, '#configs')).find((r) => r[0] === 'retention.ms')!.slice(0, 3), ['retention.ms', '604800000', 'DEFAULT_CONFIG']);
  await screenshot(page, '04-topic-configs');
  assert.deepEqual(errors, []);
});

test('the message browser shows the newest first and finds a record by key', async () => {
  await go('#/topics/orders');
  await until(async () => (await tableRows(page, '#messages')).length === 50, 'a page of 50');
  const newest = (await tableRows(page, '#messages')).map((r) => r[3]);
  // The last 30 orders were produced last, in one batch per partition: the page opens with them.
  assert.deepEqual(new Set(newest.slice(0, 30)), new Set(Array.from({ length: 30 }, (_, j) => `order-${ORDERS + j}`)));
  await screenshot(page, '05-messages-newest');

  await page.keyboard.press('/');
  await page.keyboard.type('order-123');
  await page.keyboard.press('Enter');
  await until(async () => (await tableRows(page, '#messages')).length === 1, 'one record found');
  assert.deepEqual((await tableRows(page, '#messages'))[0]!.slice(0, 4).concat((await tableRows(page, '#messages'))[0]!.slice(5)),
    [String(needle.partition), String(needle.offset), (await tableRows(page, '#messages'))[0]![2]!, 'order-123', '1']);
  await page.locator('#messages tbody tr').first().click();
  assert.equal(await page.locator('#messages pre.value').innerText(), JSON.stringify({ id: 123, amount: 369 }, null, 2));
  await screenshot(page, '06-messages-by-key');
  assert.deepEqual(errors, []);
});

test('a reset of offsets on the group page is what kafka-consumer-groups --describe prints', async () => {
  await go('#/groups/billing');
  await textBecomes('#gr-lag', '30');
  await screenshot(page, '07-group-before-reset');
  await page.locator('#reset-offsets').click();
  await page.locator('dialog select[name=to]').selectOption('earliest');
  await page.locator('dialog button[type=submit]').click();
  await textBecomes('#gr-lag', String(ORDERS + 30).replace(/\B(?=(\d{3})+(?!\d))/g, ','));
  const pageRows = await tableRows(page, '#offsets');
  await screenshot(page, '08-group-after-reset');

  const described = await runJavaToolOk('kafka-consumer-groups', ['--bootstrap-server', `127.0.0.1:${broker.port}`, '--describe', '--group', 'billing']);
  const toolRows = described.trim().split('\n').filter((line) => line.startsWith('billing ')).map((line) => line.trim().split(/\s+/));
  // GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID
  assert.deepEqual(toolRows.map((r) => [r[1], r[2], r[3], r[4], r[5]]),
    pageRows.map((r) => [r[0], r[1], r[2], r[3].replace(/,/g, ''), r[4].replace(/,/g, '')]));
  assert.deepEqual(toolRows.map((r) => r[3]), ['0', '0', '0']);
  // And /metrics, as kafka-exporter names it.
  const metrics = await (await fetch(`${broker.base}/metrics`)).text();
  const lags = [...metrics.matchAll(/^kafka_consumergroup_lag\{consumergroup="billing",topic="orders",partition="(\d+)"\} (\d+)$/gm)].map((m) => [m[1], m[2]]);
  assert.deepEqual(lags.sort(), toolRows.map((r) => [r[2], r[5]]));
  assert.deepEqual(errors, []);
});

test('a record produced on the page is read by a kafkajs consumer', async () => {
  await go('#/topics/inbox');
  await page.locator('#produce').click();
  await page.locator('dialog input[name=key]').fill('from-page');
  await page.locator('dialog textarea[name=value]').fill('{"hello":"browser"}');
  await page.locator('dialog textarea[name=headers]').fill('origin=console');
  await screenshot(page, '09-produce-dialog');
  await page.locator('dialog button[type=submit]').click();
  await until(async () => (await tableRows(page, '#messages')).some((r) => r[3] === 'from-page'), 'the page lists it');

  const consumer = kafkaFor(broker.port, 'console-e2e').consumer({ groupId: 'inbox-reader' });
  const read: { key: string; value: string; origin: string }[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic: 'inbox', fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => void read.push({ key: message.key!.toString(), value: message.value!.toString(), origin: String(message.headers?.['origin']) }),
  });
  await until(() => read.length > 0, 'kafkajs read it');
  await consumer.disconnect();
  assert.deepEqual(read, [{ key: 'from-page', value: '{"hello":"browser"}', origin: 'console' }]);
  assert.deepEqual(errors, []);
});

test('the live tail shows a record kafkajs produces while it follows', async () => {
  await go('#/topics/inbox');
  await until(async () => (await tableRows(page, '#messages')).some((r) => r[3] === 'from-page'), 'the page opened');
  await page.locator('#mb-tail').click();
  await textBecomes('#mb-status', 'following new messages…');
  const producer = kafkaFor(broker.port, 'console-e2e').producer();
  await producer.connect();
  await producer.send({ topic: 'inbox', messages: [{ key: 'tailed', value: 'live' }] });
  await producer.disconnect();
  await until(async () => (await tableRows(page, '#messages'))[0]?.[3] === 'tailed', 'the tail shows it first');
  assert.deepEqual((await tableRows(page, '#messages'))[0]!.slice(3, 5), ['tailed', 'live']);
  await screenshot(page, '10-live-tail');
  assert.deepEqual(errors, []);
});

test('groups, transactions and broker configs pages', async () => {
  await go('#/groups');
  await until(async () => (await tableRows(page, '#groups')).length >= 2, 'groups listed');
  assert.deepEqual((await tableRows(page, '#groups')).map((r) => r.slice(0, 3)), [['billing', 'classic', 'Empty'], ['inbox-reader', 'classic', 'Empty']]);
  await screenshot(page, '11-groups');

  await go('#/transactions');
  await until(async () => (await tableRows(page, '#transactions')).length === 1, 'the transaction listed');
  assert.deepEqual((await tableRows(page, '#transactions'))[0]!.slice(0, 2), ['payments-txn', 'CompleteCommit']);
  await screenshot(page, '12-transactions');

  await page.keyboard.press('5');
  await until(async () => (await tableRows(page, '#broker-configs')).length > 100, 'broker configs listed');
  assert.deepEqual((await tableRows(page, '#broker-configs')).find((r) => r[0] === 'num.partitions')!.slice(0, 3), ['num.partitions', '1', 'DEFAULT_CONFIG']);
  await screenshot(page, '13-broker-configs');
  assert.deepEqual(errors, []);
});

test('without an authorizer the ACLs page says so once; the users page lists no SCRAM user', async () => {
  await go('#/');
  await page.keyboard.press('7');
  await textBecomes('#acl-notice', 'No authorizer is configured on this broker (authorizer.class.name): it keeps no ACLs.');
  assert.deepEqual(await tableRows(page, '#acls'), [['Nothing here yet']]);
  // Not repeated as an error at every poll.
  assert.equal(await page.locator('#toast.bad').count(), 0);
  await page.keyboard.press('8');
  await until(async () => (await tableRows(page, '#users'))[0]?.[0] === 'Nothing here yet', 'no users');
  assert.deepEqual(errors, []);
});
