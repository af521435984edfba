"""confluent-kafka (librdkafka) scenarios for the compat runner.

Usage: scenarios.py <scenario> <bootstrap> <name-prefix>; exit 0 = pass, an AssertionError = fail (see runner/external.ts).
"""
import os
import re
import subprocess
import sys
import threading
import time

from confluent_kafka import (Consumer, KafkaError, ConsumerGroupTopicPartitions, KafkaException, Producer, TopicCollection,
                             TopicPartition)
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewPartitions, NewTopic

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/python")
from compat import check, eventually, observe, reset_offsets, run, same  # noqa: E402

TIMEOUT = 30


def connection(bootstrap):
    """bootstrap.servers, and in a security run its librdkafka properties (compat-tests/security/settings.ts)."""
    config = {"bootstrap.servers": bootstrap}
    if os.environ.get("COMPAT_LIBRDKAFKA_CONFIG"):
        with open(os.environ["COMPAT_LIBRDKAFKA_CONFIG"]) as lines:
            config.update(line.strip().split("=", 1) for line in lines if "=" in line)
    return config


def admin_for(bootstrap):
    return AdminClient({**connection(bootstrap)})


def create(admin, topic, partitions, config=None):
    futures = admin.create_topics([NewTopic(topic, num_partitions=partitions, config=config or {})])
    futures[topic].result(TIMEOUT)


def error_name(what, work):
    """The Kafka error name (librdkafka's spelling) work fails with."""
    try:
        work()
    except KafkaException as error:
        return error.args[0].name()
    raise AssertionError(f"{what} succeeded; Kafka refuses it")


def metadata(bootstrap, prefix):
    admin = admin_for(bootstrap)
    cluster = admin.list_topics(timeout=TIMEOUT)
    assert len(cluster.brokers) == 1, f"brokers: {cluster.brokers}"
    broker = next(iter(cluster.brokers.values()))
    assert f"{broker.host}:{broker.port}" == bootstrap, f"broker advertises {broker.host}:{broker.port}"
    assert cluster.controller_id == broker.id, f"controller {cluster.controller_id}"
    assert cluster.cluster_id, "a cluster id"
    topic = prefix + "topic"
    create(admin, topic, 3)

    def three_partitions():
        described = admin.list_topics(topic, timeout=TIMEOUT).topics[topic]
        return described if described.error is None and len(described.partitions) == 3 else None

    described = eventually("3 partitions", three_partitions)
    got = sorted((p.id, p.leader, p.replicas, p.isrs) for p in described.partitions.values())
    assert got == [(i, broker.id, [broker.id], [broker.id]) for i in range(3)], got
    observe("partitions", len(got))
    observe("create-again", error_name("creating it again", lambda: create(admin, topic, 1)))


def produce_consume(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic, 1)
    sent = [
        (b"k1", b"v1", [("h1", b"x"), ("h2", b"y")], "none"),
        (None, b"no key", [], "none"),
        (b"empty", b"", [], "none"),
        (b"null", None, [], "none"),
        # Near the broker's default limit (max.message.bytes 1048588 for the whole batch) yet under it.
        (b"big", b"x" * 1_000_000, [], "none"),
    ] + [(codec.encode(), f"compressed with {codec}".encode(), [], codec) for codec in ("gzip", "snappy", "lz4", "zstd")]
    for codec in ("none", "gzip", "snappy", "lz4", "zstd"):
        producer = Producer({**connection(bootstrap), "compression.codec": codec, "linger.ms": 5,
                             "message.max.bytes": 2_000_000})
        errors = []
        for key, value, headers, c in sent:
            if c == codec:
                producer.produce(topic, value=value, key=key, headers=headers,
                                 on_delivery=lambda err, msg: errors.append(err) if err else None)
        assert producer.flush(TIMEOUT) == 0, "undelivered messages"
        assert not errors, errors

    consumer = Consumer({**connection(bootstrap), "group.id": prefix + "group", "auto.offset.reset": "earliest",
                         "fetch.message.max.bytes": 2_000_000})
    consumer.subscribe([topic])
    received = []
    try:
        def poll():
            message = consumer.poll(1.0)
            if message is not None:
                assert message.error() is None, message.error()
                received.append(message)
            return True if len(received) >= len(sent) else None
        eventually(f"{len(sent)} messages", poll, limit=60)
    finally:
        consumer.close()
    got = [(m.offset(), m.key(), m.value(), m.headers() or []) for m in received]
    want = [(i, key, value, headers) for i, (key, value, headers, _) in enumerate(sent)]
    assert got == want, [g[:2] for g in got]


def topic_configs(admin, topic, names):
    resource = ConfigResource(ConfigResource.Type.TOPIC, topic)
    entries = admin.describe_configs([resource])[resource].result(TIMEOUT)
    return {name: entries[name].value for name in names}


def topic_admin(bootstrap, prefix):
    admin = admin_for(bootstrap)
    topic = prefix + "topic"
    create(admin, topic, 3, {"cleanup.policy": "compact"})
    names = ["cleanup.policy", "retention.ms"]
    assert topic_configs(admin, topic, names) == {"cleanup.policy": "compact", "retention.ms": "604800000"}
    resource = ConfigResource(ConfigResource.Type.TOPIC, topic, incremental_configs=[
        ConfigEntry("retention.ms", "3600000", incremental_operation=AlterConfigOpType.SET)])
    admin.incremental_alter_configs([resource])[resource].result(TIMEOUT)
    # The broker applies an altered config once the controller's record reaches it: read until it shows.
    want = {"cleanup.policy": "compact", "retention.ms": "3600000"}
    eventually(f"configs {want}", lambda: True if topic_configs(admin, topic, names) == want else None)
    assert topic_configs(admin, topic, names) == want
    admin.create_partitions([NewPartitions(topic, 5)])[topic].result(TIMEOUT)
    eventually("5 partitions", lambda: True if len(admin.list_topics(topic, timeout=TIMEOUT).topics[topic].partitions) == 5 else None)
    observe("shrink-partitions", error_name("shrinking to 2", lambda: admin.create_partitions([NewPartitions(topic, 2)])[topic].result(TIMEOUT)))
    admin.delete_topics([topic])[topic].result(TIMEOUT)
    eventually("the deleted topic to leave the topic list",
               lambda: True if topic not in admin.list_topics(timeout=TIMEOUT).topics else None)


# ---- groups and data ------------------------------------------------------------------------------------------

SESSION_TIMEOUT_MS = 6000
BASE_TIME = 1_700_000_000_000


def producer_for(bootstrap, **extra):
    return Producer({**connection(bootstrap), "acks": "all", "linger.ms": 0, **extra})


def send_all(producer, records):
    """Sends (topic, value, extra) records and returns their offsets in order."""
    offsets, errors = [], []
    for topic, value, extra in records:
        producer.produce(topic, value=value, partition=0,
                         on_delivery=lambda err, msg: errors.append(err) if err else offsets.append(msg.offset()), **extra)
        producer.flush(TIMEOUT)
    if errors:
        raise KafkaException(errors[0])
    return offsets


def produce_numbered(bootstrap, topic, start, count):
    return send_all(producer_for(bootstrap), [(topic, f"m{i}".encode(), {}) for i in range(start, start + count)])


def consumer_for(bootstrap, group, **extra):
    return Consumer({**connection(bootstrap), "group.id": group, "auto.offset.reset": "earliest",
                     "enable.auto.commit": False, **extra})


def poll_until(consumer, done, on_message=None, limit=60):
    received = []
    deadline = time.monotonic() + limit
    while not done(received):
        if time.monotonic() > deadline:
            raise AssertionError(f"have {len(received)} records: {positions(received)}")
        message = consumer.poll(0.2)
        if message is None:
            continue
        if message.error() is not None:
            raise KafkaException(message.error())
        if on_message is not None:
            on_message(message)
        received.append(message)
    return received


def read_group(bootstrap, group, topic, done, **extra):
    consumer = consumer_for(bootstrap, group, **extra)
    consumer.subscribe([topic])
    try:
        received = poll_until(consumer, done)
        consumer.commit(asynchronous=False)
        return received
    finally:
        consumer.close()


def at_least(count):
    return lambda received: len(received) >= count


def reaches(offset):
    return lambda received: any(m.offset() >= offset for m in received)


def positions(received):
    return [f"{m.partition()}:{m.offset()}" for m in received]


def values(received):
    return [None if m.value() is None else m.value().decode() for m in received]


def numbered(start, count):
    return [f"m{i}" for i in range(start, start + count)]


def committed(admin, group, topic):
    request = ConsumerGroupTopicPartitions(group, [TopicPartition(topic, 0)])
    result = admin.list_consumer_group_offsets([request])[group].result(TIMEOUT)
    offset = result.topic_partitions[0].offset
    return None if offset < 0 else offset


class Member:
    """One group member polling on its own thread; its assignment from the rebalance callbacks."""

    def __init__(self, bootstrap, group, topic):
        self.assignment = set()
        self.failure = None
        self.stopping = False
        self.thread = threading.Thread(target=self._run, args=(bootstrap, group, topic), daemon=True)
        self.thread.start()

    def _run(self, bootstrap, group, topic):
        try:
            consumer = consumer_for(bootstrap, group, **{"session.timeout.ms": SESSION_TIMEOUT_MS, "heartbeat.interval.ms": 500})

            def assigned(_, partitions):
                self.assignment = {p.partition for p in partitions}

            def revoked(_, partitions):
                self.assignment = set()
            consumer.subscribe([topic], on_assign=assigned, on_revoke=revoked)
            while not self.stopping:
                consumer.poll(0.1)
            consumer.close()  # a clean leave: LeaveGroup
        except Exception as error:  # reported by settle
            self.failure = error

    def stop(self):
        self.stopping = True
        self.thread.join(30)


def member(bootstrap, group, topic):
    Member(bootstrap, group, topic).thread.join()


def group_rebalance(bootstrap, prefix):
    topic, group = prefix + "topic", prefix + "group"
    admin = admin_for(bootstrap)
    create(admin, topic, 6)
    steps = {}

    def settle(step, live, sizes, total):
        def probe():
            for m in live:
                if m.failure is not None:
                    raise AssertionError(f"member failed: {m.failure}")
            if sorted(len(m.assignment) for m in live) != sizes:
                return None
            described = admin.describe_consumer_groups([group])[group].result(TIMEOUT)
            if described.state.name != "STABLE" or len(described.members) != total:
                return None
            return described
        described = eventually(f"{step}: sizes {sizes}", probe, limit=60)
        steps[step] = {"sizes": sizes, "state": described.state.name, "members": len(described.members)}

    rebalance_steps(settle, lambda: Member(bootstrap, group, topic), [sys.executable, __file__, "member", bootstrap, group, topic])
    observe("steps", steps)


def rebalance_steps(settle, new_member, crasher_command):
    """group-rebalance's sequence (either protocol): 6 / 3+3 / 2+2+2, a clean leave (3+3), a killed member's process
    (2+2+2, then 3+3 once its session ends)."""
    members = []
    crasher = None
    try:
        a = new_member()
        members.append(a)
        settle("one", [a], [6], 1)
        b = new_member()
        members.append(b)
        settle("two", [a, b], [3, 3], 2)
        c = new_member()
        members.append(c)
        settle("three", [a, b, c], [2, 2, 2], 3)
        c.stop()
        settle("after-leave", [a, b], [3, 3], 2)
        # A member in a process of its own, killed: it never leaves, the coordinator notices when its session ends.
        crasher = subprocess.Popen(crasher_command)
        settle("rejoin", [a, b], [2, 2], 3)
        crasher.kill()
        settle("after-crash", [a, b], [3, 3], 2)
    finally:
        if crasher is not None:
            crasher.kill()
        for m in members:
            m.stop()


def commit_resume(bootstrap, prefix):
    topic, group = prefix + "topic", prefix + "group"
    admin = admin_for(bootstrap)
    create(admin, topic, 1)
    produce_numbered(bootstrap, topic, 0, 10)
    observe("committed-before", committed(admin, group, topic))
    consumer = consumer_for(bootstrap, group)
    consumer.subscribe([topic])

    def commit_at_four(message):
        if message.offset() == 4:
            consumer.commit(offsets=[TopicPartition(topic, 0, 5)], asynchronous=False)
    poll_until(consumer, reaches(4), commit_at_four)
    consumer.close()
    same(5, committed(admin, group, topic), "committed offset")
    resumed = read_group(bootstrap, group, topic, reaches(9))
    same(numbered(5, 5), values(resumed), "resumed values")
    observe("resumed", positions(resumed))
    observe("committed-after", committed(admin, group, topic))


def offset_reset(bootstrap, prefix):
    topic, group = prefix + "topic", prefix + "group"
    admin = admin_for(bootstrap)
    create(admin, topic, 1)
    produce_numbered(bootstrap, topic, 0, 10)
    read_group(bootstrap, group, topic, at_least(10))
    same(10, committed(admin, group, topic), "committed after reading everything")
    table = reset_offsets(bootstrap, group, topic, "--to-offset", "3")
    same(["0:3"], table, "the tool's table")
    resumed = read_group(bootstrap, group, topic, reaches(9))
    same(numbered(3, 7), values(resumed), "resumed values")
    observe("tool", {"toOffset": table, "toEarliest": reset_offsets(bootstrap, group, topic, "--to-earliest")})
    observe("resumed", positions(resumed))


def two_groups(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic, 2)
    producer = producer_for(bootstrap)
    for i in range(10):
        producer.produce(topic, key=f"key-{i}".encode(), value=f"m{i}".encode())
    check(producer.flush(TIMEOUT) == 0, "undelivered messages")

    def placement(received):
        return sorted(f"{m.partition()}:{m.offset()}:{m.value().decode()}" for m in received)
    first = placement(read_group(bootstrap, prefix + "first", topic, at_least(10)))
    second = placement(read_group(bootstrap, prefix + "second", topic, at_least(10)))
    same(first, second, "both groups read the same")
    observe("placement", first)


def seek_replay(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic, 1)
    produce_numbered(bootstrap, topic, 0, 10)
    consumer = consumer_for(bootstrap, prefix + "group")
    consumer.subscribe([topic])
    sought = []

    def seek_once(message):
        if not sought and message.offset() == 9:
            sought.append(True)
            consumer.seek(TopicPartition(topic, 0, 3))
    received = poll_until(consumer, at_least(17), seek_once)
    consumer.close()
    offsets = [m.offset() for m in received]
    same(list(range(10)) + list(range(3, 10)), offsets, "offsets")
    observe("offsets", offsets)


def offsets_for_times(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic, 1)
    send_all(producer_for(bootstrap), [(topic, f"t{i}".encode(), {"timestamp": BASE_TIME + i * 1000}) for i in range(5)])
    consumer = consumer_for(bootstrap, prefix + "group")

    def at(timestamp):
        return consumer.offsets_for_times([TopicPartition(topic, 0, timestamp)], TIMEOUT)[0].offset
    answers = {"before": at(BASE_TIME - 1000), "exact": at(BASE_TIME + 2000), "between": at(BASE_TIME + 2500),
               "after": at(BASE_TIME + 60_000)}
    same({"before": 0, "exact": 2, "between": 3, "after": -1}, answers, "offsets_for_times")
    low, high = consumer.get_watermark_offsets(TopicPartition(topic, 0), TIMEOUT)
    consumer.close()
    observe("offsets", answers)
    observe("bounds", [low, high])


def idempotent_producer(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic, 1)
    offsets = send_all(producer_for(bootstrap, **{"enable.idempotence": True}), [(topic, f"m{i}".encode(), {}) for i in range(9)])
    same(list(range(9)), offsets, "offsets")
    observe("offsets", offsets)
    same(numbered(0, 9), values(read_group(bootstrap, prefix + "group", topic, at_least(9))), "read back")


def transactions(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic, 1)
    producer = producer_for(bootstrap, **{"transactional.id": prefix + "txn"})
    producer.init_transactions(TIMEOUT)
    # Committed (offsets 0-2, marker 3), aborted (4-5, marker 6), committed (7, marker 8).
    for end, batch in (("commit", ["c0", "c1", "c2"]), ("abort", ["a0", "a1"]), ("commit", ["c3"])):
        producer.begin_transaction()
        for value in batch:
            producer.produce(topic, value=value.encode(), partition=0)
        producer.flush(TIMEOUT)
        producer.commit_transaction(TIMEOUT) if end == "commit" else producer.abort_transaction(TIMEOUT)
    committed_read = read_group(bootstrap, prefix + "committed", topic, at_least(4), **{"isolation.level": "read_committed"})
    same(["c0", "c1", "c2", "c3"], values(committed_read), "read_committed")
    everything = read_group(bootstrap, prefix + "uncommitted", topic, at_least(6), **{"isolation.level": "read_uncommitted"})
    same(["c0", "c1", "c2", "a0", "a1", "c3"], values(everything), "read_uncommitted")
    observe("read-committed", positions(committed_read))
    observe("read-uncommitted", positions(everything))


def broker_restart_before(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic, 1)
    produce_numbered(bootstrap, topic, 0, 5)
    read_group(bootstrap, prefix + "group", topic, at_least(5))


def broker_restart_after(bootstrap, prefix):
    topic, group = prefix + "topic", prefix + "group"
    # The coordinator answers COORDINATOR_LOAD_IN_PROGRESS until it has loaded its offsets again.
    probe = consumer_for(bootstrap, group)

    def offset():
        found = probe.committed([TopicPartition(topic, 0)], TIMEOUT)[0]
        return None if found.error is not None or found.offset < 0 else found.offset
    same(5, eventually("the committed offset", offset), "committed after the restart")
    probe.close()
    same([5, 6, 7, 8, 9], produce_numbered(bootstrap, topic, 5, 5), "offsets after the restart")
    resumed = read_group(bootstrap, group, topic, reaches(9))
    same(numbered(5, 5), values(resumed), "resumed values")
    same(numbered(0, 10), values(read_group(bootstrap, prefix + "all", topic, at_least(10))), "everything")
    observe("resumed", positions(resumed))


# ---- errors ---------------------------------------------------------------------------------------------------

def error_unknown_topic(bootstrap, prefix):
    topic = prefix + "missing"
    admin = admin_for(bootstrap)
    # DescribeTopics, not list_topics(topic): the admin client's metadata request for one topic asks Kafka to
    # auto-create it.
    observe("describe-topics", error_name("describing it", lambda: admin.describe_topics(TopicCollection([topic]))[topic].result(TIMEOUT)))
    check(topic not in admin.list_topics(timeout=TIMEOUT).topics, "the topic was not created")
    resource = ConfigResource(ConfigResource.Type.TOPIC, topic)
    observe("describe-configs", error_name("describing its configs", lambda: admin.describe_configs([resource])[resource].result(TIMEOUT)))
    observe("delete", error_name("deleting it", lambda: admin.delete_topics([topic])[topic].result(TIMEOUT)))
    observe("add-partitions", error_name("adding partitions", lambda: admin.create_partitions([NewPartitions(topic, 2)])[topic].result(TIMEOUT)))


def error_message_too_large(bootstrap, prefix):
    topic, other = prefix + "topic", prefix + "default"
    admin = admin_for(bootstrap)
    create(admin, topic, 1, {"max.message.bytes": "2000"})
    create(admin, other, 1)
    # message.max.bytes raised so the broker, not librdkafka, judges the size.
    producer = producer_for(bootstrap, **{"message.max.bytes": 4_000_000, "retries": 0})
    observe("over-topic-limit", error_name("a 3000-byte record", lambda: send_all(producer, [(topic, b"x" * 3000, {})])))
    observe("over-broker-default", error_name("a 1.1 MB record", lambda: send_all(producer, [(other, b"x" * 1_100_000, {})])))
    observe("under-limit-offset", send_all(producer, [(topic, b"x" * 1000, {})]))


def error_invalid_topic(bootstrap, prefix):
    admin = admin_for(bootstrap)
    for key, name, partitions in (("space-and-bang", "bad name!", 1), ("dot", ".", 1), ("250-chars", "x" * 250, 1),
                                  ("zero-partitions", prefix + "zero", 0)):
        observe(key, error_name(key, lambda: create(admin, name, partitions)))


def error_invalid_config(bootstrap, prefix):
    topic = prefix + "topic"
    admin = admin_for(bootstrap)
    observe("create-bad-value", error_name("cleanup.policy=bogus", lambda: create(admin, topic, 1, {"cleanup.policy": "bogus"})))
    observe("create-bad-number", error_name("retention.ms=abc", lambda: create(admin, topic, 1, {"retention.ms": "abc"})))
    observe("create-unknown-name", error_name("no.such.config=1", lambda: create(admin, topic, 1, {"no.such.config": "1"})))
    check(topic not in admin.list_topics(timeout=TIMEOUT).topics, "a refused topic is not created")
    create(admin, topic, 1)
    resource = ConfigResource(ConfigResource.Type.TOPIC, topic, incremental_configs=[
        ConfigEntry("retention.ms", "abc", incremental_operation=AlterConfigOpType.SET)])
    observe("alter-bad-value", error_name("retention.ms=abc", lambda: admin.incremental_alter_configs([resource])[resource].result(TIMEOUT)))
    observe("configs-after", topic_configs(admin, topic, ["retention.ms"]))


def newest_versions(bootstrap, prefix):
    """What a typical application does, for the runner to read the API versions librdkafka negotiates through its
    recording proxy (runner/versions.ts): an idempotent producer, a group consumer that commits, a
    consume-transform-produce transaction that commits the group's offsets with it, a read_committed reader, and
    the admin client describing the group and the cluster."""
    topic, output, group = prefix + "topic", prefix + "output", prefix + "group"
    admin = admin_for(bootstrap)
    create(admin, topic, 1)
    create(admin, output, 1)
    send_all(producer_for(bootstrap, **{"enable.idempotence": True}), [(topic, f"m{i}".encode(), {"key": f"k{i}".encode()}) for i in range(3)])
    same(numbered(0, 3), values(read_group(bootstrap, prefix + "reader", topic, at_least(3))), "read through a group")
    consumer = consumer_for(bootstrap, group, **{"isolation.level": "read_committed"})
    producer = producer_for(bootstrap, **{"transactional.id": prefix + "txn"})
    try:
        producer.init_transactions(TIMEOUT)
        consumer.subscribe([topic])
        received = poll_until(consumer, at_least(3))
        producer.begin_transaction()
        for message in received:
            producer.produce(output, key=message.key(), value=message.value().upper(), partition=0)
        producer.send_offsets_to_transaction([TopicPartition(topic, 0, 3)], consumer.consumer_group_metadata(), TIMEOUT)
        producer.commit_transaction(TIMEOUT)
    finally:
        consumer.close()
    transformed = read_group(bootstrap, prefix + "checker", output, at_least(3), **{"isolation.level": "read_committed"})
    same(["M0", "M1", "M2"], values(transformed), "the transaction's output")
    same(3, committed(admin, group, topic), "the offset committed in the transaction")
    described = admin.describe_consumer_groups([group])[group].result(TIMEOUT)
    cluster = admin.describe_cluster().result(TIMEOUT)
    observe("output", positions(transformed))
    observe("group-state", described.state.name)
    observe("cluster-brokers", len(cluster.nodes))


def auth_failure(bootstrap, prefix):
    """Metadata with settings the broker refuses: the most specific error librdkafka reports (code name; a SASL one's text)."""
    errors = []
    admin = AdminClient({**connection(bootstrap), "error_cb": errors.append})
    try:
        admin.list_topics(timeout=5)
    except KafkaException as failure:
        observe("raised", failure.args[0].name())
    else:
        raise AssertionError("the broker accepted the login; Kafka refuses it")

    # The connection's own failure reaches error_cb, which poll() serves. Which comes first, a generic transport
    # error or the specific one (_SSL, _AUTHENTICATION), varies with timing: wait a little for the specific one.
    generic = (KafkaError._TRANSPORT, KafkaError._ALL_BROKERS_DOWN)

    def specific_error():
        admin.poll(0.2)
        return next((e for e in errors if e.code() not in generic), None)

    try:
        first = eventually("a specific error from error_cb", specific_error, 5)
    except AssertionError:
        check(errors, "error_cb got no error")
        first = errors[0]
    observe("error", first.name())
    if first.code() == KafkaError._AUTHENTICATION:
        # "<listener>://<address>/bootstrap: SASL authentication error: ... (after 5ms in state AUTH_REQ)"
        observe("message", re.sub(r"^\S+/bootstrap: | \(after \d+ms in state \w+.*\)$", "", first.str()))


if __name__ == "__main__":
    import consumer_protocol  # imports this module as `scenarios`: its helpers
    run({
        "metadata": metadata, "topic-admin": topic_admin, "produce-consume": produce_consume, "group-rebalance": group_rebalance,
        "commit-resume": commit_resume, "offset-reset": offset_reset, "two-groups": two_groups, "seek-replay": seek_replay,
        "offsets-for-times": offsets_for_times, "idempotent-producer": idempotent_producer, "transactions": transactions,
        "broker-restart-before": broker_restart_before, "broker-restart-after": broker_restart_after,
        "error-unknown-topic": error_unknown_topic, "error-message-too-large": error_message_too_large,
        "error-invalid-topic": error_invalid_topic, "error-invalid-config": error_invalid_config, "member": member,
        "newest-versions": newest_versions, "auth-failure": auth_failure,
        **consumer_protocol.SCENARIOS,
    })
