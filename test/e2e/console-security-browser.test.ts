// The console's Cluster, ACLs, Users and share group pages in a real browser (Debian's chromium through
// playwright-core) against an in-process gregor with an authorizer and a SASL_PLAINTEXT listener: the cluster page
// shows the broker and its endpoints, an ACL added on the page is what kafka-acls --list prints (and gone from it
// once removed from the page, with the keyboard), a SCRAM user added on the page logs in with kafkajs over SASL, and
// a share group's start offsets and lag, reset on the page, are what kafka-share-groups --describe prints.
// Screenshots go to test-artifacts/console/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import { kafkaFor, until } from '../coordinator/kafkajs-group-helpers.js';
import { installJavaTools, runJavaToolOk } from './java-tools.js';
import { launchBrowser, openPage, screenshot, SCREENSHOTS, tableRows } from './console-browser.js';
import { startConsoleBroker, type ConsoleBroker } from '../http/console/console-harness.js';
import { RawClient } from '../server/raw-client.js';
import { roundTrip } from '../server/broker-harness.js';
import { createShareGroupHeartbeatRequest, shareGroupHeartbeatApi } from '../../src/protocol/generated/share-group-heartbeat.js';

let broker: ConsoleBroker;
let browser: Browser;
let page: Page;
let errors: string[];
let bootstrap: string;
let saslPort: number;

before(async () => {
  installJavaTools();
  broker = await startConsoleBroker({
    listeners: 'PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0',
    'sasl.enabled.mechanisms': 'SCRAM-SHA-256,SCRAM-SHA-512',
    // The console and the tools connect as User:ANONYMOUS over PLAINTEXT: allowed where no ACL names a resource.
    'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer', 'allow.everyone.if.no.acl.found': 'true',
  });
  bootstrap = `127.0.0.1:${broker.port}`;
  saslPort = broker.addresses[1]!.port;
  const admin = kafkaFor(broker.port, 'console-security').admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'ledger', numPartitions: 2 }] });
  await admin.disconnect();
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

async function textBecomes(selector: string, expected: string): Promise<void> {
  await until(async () => (await page.locator(selector).innerText().catch(() => '')).trim() === expected, `${selector} shows ${expected}`);
}

/** kafka-acls --list's entry lines, trimmed and sorted (Java prints a resource's ACLs in a HashSet's order). */
async function aclsListed(): Promise<string[]> {
  const out = await runJavaToolOk('kafka-acls', ['--bootstrap-server', bootstrap, '--list']);
  return out.split('\n').map((line) => line.trim()).filter((line) => line !== '').sort();
}

test('cluster: the one broker, its endpoints, the controller, and every partition led and in sync', async () => {
  await page.keyboard.press('Escape');
  await go('#/');
  await page.keyboard.press('6');
  await textBecomes('#cl-mode', 'single broker');
  await textBecomes('#cl-controller', '1');
  await textBecomes('#cl-under', '0');
  await textBecomes('#cl-offline', '0');
  assert.deepEqual(await tableRows(page, '#cluster-brokers'),
    [['1', '-', `PLAINTEXT 127.0.0.1:${broker.port}\nSASL_PLAINTEXT 127.0.0.1:${saslPort}`, 'controller (this console)']]);
  await until(async () => (await tableRows(page, '#cluster-partitions')).some((r) => r[0] === 'ledger'), 'ledger listed');
  assert.deepEqual((await tableRows(page, '#cluster-partitions')).filter((r) => r[0] === 'ledger'),
    [['ledger', '0', '1', '0', '1', '1', 'in sync'], ['ledger', '1', '1', '0', '1', '1', 'in sync']]);
  await screenshot(page, '20-cluster');
  assert.deepEqual(errors, []);
});

test('an ACL added on the page is what kafka-acls --list prints; removed from the keyboard, it is gone', async () => {
  await go('#/acls');
  await until(async () => (await tableRows(page, '#acls'))[0]?.[0] === 'Nothing here yet', 'no ACLs yet');
  await page.keyboard.press('n');
  await page.locator('dialog input[name=principal]').fill('User:alice');
  await page.locator('dialog select[name=resourceType]').selectOption('TOPIC');
  await page.locator('dialog input[name=resourceName]').fill('ledger');
  await page.locator('dialog select[name=operation]').selectOption('WRITE');
  await screenshot(page, '21-acl-dialog');
  await page.locator('dialog button[type=submit]').click();
  await until(async () => (await tableRows(page, '#acls')).length === 1 && (await tableRows(page, '#acls'))[0]![0] === 'TOPIC', 'the ACL listed');
  assert.deepEqual((await tableRows(page, '#acls'))[0]!.slice(0, 7), ['TOPIC', 'ledger', 'LITERAL', 'User:alice', '*', 'WRITE', 'ALLOW']);
  await screenshot(page, '22-acls');
  assert.deepEqual(await aclsListed(), [
    '(principal=User:alice, host=*, operation=WRITE, permissionType=ALLOW)',
    'Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=ledger, patternType=LITERAL)`:',
  ]);

  // j focuses the row, Delete asks, Enter confirms.
  await page.keyboard.press('j');
  await page.keyboard.press('Delete');
  await page.locator('dialog button[type=submit]').waitFor();
  await page.keyboard.press('Enter');
  await until(async () => (await tableRows(page, '#acls'))[0]?.[0] === 'Nothing here yet', 'the ACL removed');
  assert.deepEqual(await aclsListed(), []);
  assert.deepEqual(errors, []);
});

test('a SCRAM user added on the page logs in with kafkajs over SASL; the page never shows the password', async () => {
  await go('#/users');
  await page.locator('#create-user').click();
  await page.locator('dialog input[name=user]').fill('dave');
  await page.locator('dialog select[name=mechanism]').selectOption('SCRAM-SHA-512');
  await page.locator('dialog input[name=password]').fill('dave-secret');
  await page.locator('dialog input[name=iterations]').fill('8192');
  await page.locator('dialog button[type=submit]').click();
  await until(async () => (await tableRows(page, '#users'))[0]?.[0] === 'dave', 'dave listed');
  assert.deepEqual((await tableRows(page, '#users')).map((r) => r.slice(0, 3)), [['dave', 'SCRAM-SHA-512', '8,192']]);
  assert.doesNotMatch(await page.content(), /dave-secret/);
  await screenshot(page, '23-users');

  const kafka = new Kafka({
    brokers: [`127.0.0.1:${saslPort}`], clientId: 'console-scram', retry: { retries: 0 }, logLevel: logLevel.NOTHING,
    sasl: { mechanism: 'scram-sha-512', username: 'dave', password: 'dave-secret' } as SASLOptions,
  });
  const producer = kafka.producer();
  await producer.connect();
  const [sent] = await producer.send({ topic: 'ledger', messages: [{ partition: 0, key: 'from-dave', value: 'over SASL' }] });
  await producer.disconnect();
  assert.equal(sent!.errorCode, 0);
  const wrong = new Kafka({
    brokers: [`127.0.0.1:${saslPort}`], clientId: 'console-scram', retry: { retries: 0 }, logLevel: logLevel.NOTHING,
    sasl: { mechanism: 'scram-sha-512', username: 'dave', password: 'not-it' } as SASLOptions,
  }).admin();
  await assert.rejects(wrong.connect(), /SASL SCRAM SHA512 authentication failed/);
  assert.deepEqual(errors, []);
});

test('a share group\'s start offsets and lag, reset on the page, are what kafka-share-groups --describe prints', async () => {
  const client = await RawClient.connect(broker.port);
  const join = { ...createShareGroupHeartbeatRequest(), groupId: 'ledger-share', memberId: 'member-1', subscribedTopicNames: ['ledger'] };
  try {
    let beat = await roundTrip(client, shareGroupHeartbeatApi, 1, join);
    while (beat.assignment?.topicPartitions.length !== 1) beat = await roundTrip(client, shareGroupHeartbeatApi, 1, { ...join, memberEpoch: beat.memberEpoch, subscribedTopicNames: null });
    await go('#/groups/ledger-share');
    await textBecomes('#gr-state', 'Stable');
    assert.deepEqual((await tableRows(page, '#members')).map((r) => [r[0], r[3]]), [['member-1', 'ledger: 0,1']]);
    await screenshot(page, '24-share-group-stable');
    await roundTrip(client, shareGroupHeartbeatApi, 1, { ...join, memberEpoch: -1, subscribedTopicNames: null });
  } finally {
    await client.close();
  }
  const producer = kafkaFor(broker.port, 'console-security').producer();
  await producer.connect();
  await producer.send({ topic: 'ledger', messages: [{ partition: 1, value: 'a' }, { partition: 1, value: 'b' }] });
  await producer.disconnect();

  await textBecomes('#gr-state', 'Empty');
  await page.locator('#reset-offsets').click();
  await page.locator('dialog select[name=to]').selectOption('earliest');
  await page.locator('dialog button[type=submit]').click();
  // dave's record on partition 0 and the two on partition 1.
  await textBecomes('#gr-lag', '3');
  assert.equal(await page.locator('#offsets th').nth(2).innerText(), 'START OFFSET');
  const pageRows = (await tableRows(page, '#offsets')).map((r) => [r[0], r[1], r[2], r[4]]);
  await screenshot(page, '25-share-group-reset');
  const described = await runJavaToolOk('kafka-share-groups', ['--bootstrap-server', bootstrap, '--describe', '--group', 'ledger-share', '--offsets']);
  // GROUP TOPIC PARTITION START-OFFSET LAG
  const toolRows = described.trim().split('\n').filter((line) => line.startsWith('ledger-share ')).map((line) => line.trim().split(/\s+/).slice(1));
  assert.deepEqual(toolRows, [['ledger', '0', '0', '1'], ['ledger', '1', '0', '2']]);
  assert.deepEqual(pageRows, toolRows);
  assert.deepEqual(errors, []);
});
