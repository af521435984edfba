"""kafka-python scenarios for the compat runner.

Usage: scenarios.py <scenario> <bootstrap> <name-prefix>; exit 0 = pass, an AssertionError = fail, "OBSERVE" lines feed
the differential mode (see runner/external.ts). "member <bootstrap> <group> <topic>" runs one group member until killed.
"""
import logging
import os
import re
import subprocess
import sys
import threading
import time

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource, NewPartitions
from kafka.errors import KafkaError, RebalanceInProgressError
from kafka.structs import OffsetAndMetadata

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/python")
from compat import check, eventually, observe, reset_offsets, run, same  # noqa: E402

logging.disable(logging.CRITICAL)
# The broker's group.min.session.timeout.ms: a crashed member is noticed after this long.
SESSION_TIMEOUT_MS = 6000
BASE_TIME = 1_700_000_000_000


def connection(bootstrap):
    """bootstrap_servers, and in a security run its ssl_*/sasl_* settings (compat-tests/security/settings.ts)."""
    config = {"bootstrap_servers": bootstrap}
    env = os.environ
    if env.get("COMPAT_SECURITY_PROTOCOL"):
        config.update(security_protocol=env["COMPAT_SECURITY_PROTOCOL"], ssl_cafile=env["COMPAT_SSL_CA"])
        if env.get("COMPAT_SSL_CERT"):
            config.update(ssl_certfile=env["COMPAT_SSL_CERT"], ssl_keyfile=env["COMPAT_SSL_KEY"])
        if env.get("COMPAT_SASL_MECHANISM"):
            config.update(sasl_mechanism=env["COMPAT_SASL_MECHANISM"], sasl_plain_username=env["COMPAT_SASL_USERNAME"],
                          sasl_plain_password=env["COMPAT_SASL_PASSWORD"])
    return config


def admin_for(bootstrap):
    return KafkaAdminClient(**connection(bootstrap))


def create(admin, topic, partitions=1, configs=None):
    admin.create_topics({topic: {"num_partitions": partitions, "configs": configs or {}}}, wait_for_metadata=True)


def producer_for(bootstrap, **extra):
    # kafka-python is idempotent by default (KIP-679); only the idempotence scenarios ask for it.
    return KafkaProducer(**connection(bootstrap), enable_idempotence=False, acks="all", **extra)


def consumer_for(bootstrap, group, **extra):
    return KafkaConsumer(**connection(bootstrap), group_id=group, auto_offset_reset="earliest",
                         enable_auto_commit=False, **extra)


def subscribe(consumer, topic):
    """Subscribes once the consumer's metadata knows the topic, so its first generation already assigns it.
    kafka-python 3.0.12 rejoins when topic metadata arrives during a rebalance, and that second rebalance can stall
    for good when a poll times out between its JoinGroup and SyncGroup responses (FINDINGS.md)."""
    consumer.partitions_for_topic(topic)
    consumer.subscribe([topic])


def error_name(what, work):
    """The Kafka error name (UNKNOWN_TOPIC_OR_PARTITION, ...) work fails with."""
    try:
        work()
    except KafkaError as error:
        return type(error).message
    raise AssertionError(f"{what} succeeded; Kafka refuses it")


def produce_numbered(bootstrap, topic, start, count):
    producer = producer_for(bootstrap)
    offsets = [producer.send(topic, value=f"m{i}".encode(), partition=0).get(30).offset for i in range(start, start + count)]
    producer.close()
    return offsets


def poll_until(consumer, done, on_record=None, limit=60):
    received = []
    deadline = time.monotonic() + limit
    while not done(received):
        if time.monotonic() > deadline:
            raise AssertionError(f"have {len(received)} records: {positions(received)}")
        for records in consumer.poll(timeout_ms=200).values():
            for record in records:
                if on_record is not None:
                    on_record(record)
                received.append(record)
    return received


def read_group(bootstrap, group, topic, done, **extra):
    consumer = consumer_for(bootstrap, group, **extra)
    subscribe(consumer, topic)
    try:
        received = poll_until(consumer, done)
        commit_when_settled(consumer, received)
        return received
    finally:
        consumer.close()


def commit_when_settled(consumer, received, limit=60):
    """Commits; while kafka-python is rebalancing it refuses and asks for poll() and a retry (its error's words)."""
    deadline = time.monotonic() + limit
    while True:
        try:
            consumer.commit()
            return
        except RebalanceInProgressError:
            if time.monotonic() > deadline:
                raise
            for records in consumer.poll(timeout_ms=200).values():
                received.extend(records)


def at_least(count):
    return lambda received: len(received) >= count


def reaches(offset):
    return lambda received: any(r.offset >= offset for r in received)


def positions(received):
    return [f"{r.partition}:{r.offset}" for r in received]


def values(received):
    return [None if r.value is None else r.value.decode() for r in received]


def numbered(start, count):
    return [f"m{i}" for i in range(start, start + count)]


def committed(admin, group, topic):
    offsets = admin.list_group_offsets({group: [TopicPartition(topic, 0)]}).get(group, {})
    found = offsets.get(TopicPartition(topic, 0))
    return None if found is None or found.offset < 0 else found.offset


def topic_configs(admin, topic, names):
    described = admin.describe_configs([ConfigResource("TOPIC", topic, names)], config_filter="all")
    entries = described["topic"][topic]
    return {name: entries[name]["value"] for name in names if name in entries}


# ---- scenarios ------------------------------------------------------------------------------------------------

def metadata(bootstrap, prefix):
    admin = admin_for(bootstrap)
    cluster = admin.describe_cluster()
    same(1, len(cluster["brokers"]), "brokers")
    broker = cluster["brokers"][0]
    same(bootstrap, f"{broker['host']}:{broker['port']}", "the advertised address")
    same(broker["broker_id"], cluster["controller_id"], "the controller")
    check(cluster["cluster_id"], "a cluster id")
    topic = prefix + "topic"
    create(admin, topic, 3)
    described = admin.describe_topics([topic])[0]
    layout = sorted((p["partition_index"], p["leader_id"], p["replica_nodes"], p["isr_nodes"]) for p in described["partitions"])
    node = broker["broker_id"]
    same([(i, node, [node], [node]) for i in range(3)], layout, "partitions")
    check(topic in admin.list_topics(), "list_topics shows the new topic")
    observe("partitions", len(layout))
    observe("create-again", error_name("creating it again", lambda: create(admin, topic, 1)))
    admin.close()


def topic_admin(bootstrap, prefix):
    admin = admin_for(bootstrap)
    topic = prefix + "topic"
    names = ["cleanup.policy", "max.message.bytes", "retention.ms", "segment.bytes"]
    create(admin, topic, 3, {"cleanup.policy": "compact"})
    created = topic_configs(admin, topic, names)
    same(("compact", "604800000"), (created["cleanup.policy"], created["retention.ms"]), "created configs")
    observe("configs-created", created)
    result = admin.alter_configs([ConfigResource("TOPIC", topic, {"retention.ms": "3600000", "cleanup.policy": ("DELETE", None)})])
    same("OK", result["topic"][topic], "incremental alter")
    want = {"cleanup.policy": "delete", "retention.ms": "3600000"}
    # The broker applies an altered config once the controller's record reaches it: read until it shows.
    eventually(f"configs {want}", lambda: True if topic_configs(admin, topic, list(want)) == want else None)
    observe("configs-altered", topic_configs(admin, topic, names))
    admin.create_partitions({topic: NewPartitions(5)})
    eventually("5 partitions", lambda: True if len(admin.describe_topics([topic])[0]["partitions"]) == 5 else None)
    observe("shrink-partitions", error_name("shrinking to 2", lambda: admin.create_partitions({topic: NewPartitions(2)})))
    admin.delete_topics([topic])
    eventually("the deleted topic to leave list_topics", lambda: True if topic not in admin.list_topics() else None)
    admin.close()


def produce_consume(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic)
    sent = [
        (b"k1", b"v1", [("h1", b"x"), ("h2", b"y")], None),
        (None, b"no key", [], None),
        (b"empty", b"", [], None),
        (b"null", None, [], None),
        # Near the broker's default limit (max.message.bytes 1048588 for the whole batch) yet under it.
        (b"big", b"x" * 1_000_000, [], None),
    ] + [(codec.encode(), f"compressed with {codec}".encode(), [], codec) for codec in ("gzip", "snappy", "lz4", "zstd")]
    offsets = []
    for codec in (None, "gzip", "snappy", "lz4", "zstd"):
        producer = producer_for(bootstrap, compression_type=codec, max_request_size=2_000_000)
        for key, value, headers, c in sent:
            if c == codec:
                offsets.append(producer.send(topic, key=key, value=value, headers=headers, partition=0).get(30).offset)
        producer.close()
    observe("offsets", offsets)
    received = read_group(bootstrap, prefix + "group", topic, at_least(len(sent)))
    got = [(r.offset, r.key, r.value, list(r.headers or [])) for r in received]
    want = [(i, key, value, headers) for i, (key, value, headers, _) in enumerate(sent)]
    same([w[:2] for w in want], [g[:2] for g in got], "offsets and keys")
    check(got == want, "values and headers")


class Member:
    """One group member polling on its own thread; its assignment as the consumer reports it."""

    def __init__(self, bootstrap, group, topic):
        self.assignment = set()
        self.failure = None
        self.stopping = False
        self.thread = threading.Thread(target=self._run, args=(bootstrap, group, topic), daemon=True)
        self.thread.start()

    def _run(self, bootstrap, group, topic):
        try:
            consumer = consumer_for(bootstrap, group, session_timeout_ms=SESSION_TIMEOUT_MS, heartbeat_interval_ms=500)
            subscribe(consumer, topic)
            while not self.stopping:
                consumer.poll(timeout_ms=100)
                self.assignment = {tp.partition for tp in consumer.assignment()}
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
            if total == len(live) and set().union(*(m.assignment for m in live)) != set(range(6)):
                return None
            described = admin.describe_groups([group])[group]
            if described["group_state"] != "Stable" or len(described["members"]) != total:
                return None
            return described
        described = eventually(f"{step}: sizes {sizes}", probe, limit=60)
        steps[step] = {"sizes": sizes, "state": described["group_state"], "members": len(described["members"]),
                       "protocol": described["protocol_data"]}

    members = []
    crasher = None
    try:
        a = Member(bootstrap, group, topic)
        members.append(a)
        settle("one", [a], [6], 1)
        b = Member(bootstrap, group, topic)
        members.append(b)
        settle("two", [a, b], [3, 3], 2)
        c = Member(bootstrap, group, topic)
        members.append(c)
        settle("three", [a, b, c], [2, 2, 2], 3)
        c.stop()
        settle("after-leave", [a, b], [3, 3], 2)
        # A member in a process of its own, killed: no LeaveGroup, the coordinator notices when its session times out.
        crasher = subprocess.Popen([sys.executable, __file__, "member", bootstrap, group, topic])
        settle("rejoin", [a, b], [2, 2], 3)
        crasher.kill()
        settle("after-crash", [a, b], [3, 3], 2)
        observe("steps", steps)
    finally:
        if crasher is not None:
            crasher.kill()
        for m in members:
            m.stop()
        admin.close()


def commit_resume(bootstrap, prefix):
    topic, group = prefix + "topic", prefix + "group"
    admin = admin_for(bootstrap)
    create(admin, topic)
    produce_numbered(bootstrap, topic, 0, 10)
    observe("committed-before", committed(admin, group, topic))
    consumer = consumer_for(bootstrap, group)
    subscribe(consumer, topic)

    def commit_at_four(record):
        if record.offset == 4:
            consumer.commit({TopicPartition(topic, 0): OffsetAndMetadata(5, "", -1)})
    poll_until(consumer, reaches(4), commit_at_four)
    consumer.close()
    same(5, committed(admin, group, topic), "committed offset")
    resumed = read_group(bootstrap, group, topic, reaches(9))
    same(numbered(5, 5), values(resumed), "resumed values")
    observe("resumed", positions(resumed))
    observe("committed-after", committed(admin, group, topic))
    admin.close()


def offset_reset(bootstrap, prefix):
    topic, group = prefix + "topic", prefix + "group"
    admin = admin_for(bootstrap)
    create(admin, topic)
    produce_numbered(bootstrap, topic, 0, 10)
    read_group(bootstrap, group, topic, at_least(10))
    same(10, committed(admin, group, topic), "committed after reading everything")
    table = reset_offsets(bootstrap, group, topic, "--to-offset", "3")
    same(["0:3"], table, "the tool's table")
    same(3, committed(admin, group, topic), "committed after the reset")
    resumed = read_group(bootstrap, group, topic, reaches(9))
    same(numbered(3, 7), values(resumed), "resumed values")
    observe("tool", {"toOffset": table, "toEarliest": reset_offsets(bootstrap, group, topic, "--to-earliest")})
    observe("resumed", positions(resumed))
    admin.close()


def two_groups(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic, 2)
    producer = producer_for(bootstrap)
    for i in range(10):
        producer.send(topic, key=f"key-{i}".encode(), value=f"m{i}".encode()).get(30)
    producer.close()

    def placement(received):
        return sorted(f"{r.partition}:{r.offset}:{r.value.decode()}" for r in received)
    first = placement(read_group(bootstrap, prefix + "first", topic, at_least(10)))
    second = placement(read_group(bootstrap, prefix + "second", topic, at_least(10)))
    same(first, second, "both groups read the same")
    observe("placement", first)


def seek_replay(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic)
    produce_numbered(bootstrap, topic, 0, 10)
    consumer = consumer_for(bootstrap, prefix + "group")
    subscribe(consumer, topic)
    sought = []

    def seek_once(record):
        if not sought and record.offset == 9:
            sought.append(True)
            consumer.seek(TopicPartition(topic, 0), 3)
    received = poll_until(consumer, at_least(17), seek_once)
    consumer.close()
    offsets = [r.offset for r in received]
    same(list(range(10)) + list(range(3, 10)), offsets, "offsets")
    observe("offsets", offsets)


def offsets_for_times(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic)
    producer = producer_for(bootstrap)
    for i in range(5):
        producer.send(topic, value=f"t{i}".encode(), partition=0, timestamp_ms=BASE_TIME + i * 1000).get(30)
    producer.close()
    consumer = consumer_for(bootstrap, prefix + "group")
    partition = TopicPartition(topic, 0)

    def at(timestamp):
        found = consumer.offsets_for_times({partition: timestamp})[partition]
        return None if found is None else [found.offset, found.timestamp]
    answers = {"before": at(BASE_TIME - 1000), "exact": at(BASE_TIME + 2000), "between": at(BASE_TIME + 2500),
               "after": at(BASE_TIME + 60_000)}
    same({"before": [0, BASE_TIME], "exact": [2, BASE_TIME + 2000], "between": [3, BASE_TIME + 3000], "after": None}, answers,
         "offsets_for_times")
    bounds = {"beginning": consumer.beginning_offsets([partition])[partition], "end": consumer.end_offsets([partition])[partition]}
    same({"beginning": 0, "end": 5}, bounds, "beginning and end offsets")
    consumer.close()
    observe("offsets", answers)
    observe("bounds", bounds)


def idempotent_producer(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic)
    producer = KafkaProducer(**connection(bootstrap), enable_idempotence=True)
    futures = [producer.send(topic, value=f"m{i}".encode(), partition=0) for i in range(9)]
    offsets = [f.get(30).offset for f in futures]
    producer.close()
    same(list(range(9)), offsets, "offsets")
    observe("offsets", offsets)
    same(numbered(0, 9), values(read_group(bootstrap, prefix + "group", topic, at_least(9))), "read back")


def transactions(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic)
    producer = KafkaProducer(**connection(bootstrap), transactional_id=prefix + "txn")
    producer.init_transactions()
    # Committed (offsets 0-2, marker 3), aborted (4-5, marker 6), committed (7, marker 8).
    for end, batch in (("commit", ["c0", "c1", "c2"]), ("abort", ["a0", "a1"]), ("commit", ["c3"])):
        producer.begin_transaction()
        for value in batch:
            producer.send(topic, value=value.encode(), partition=0)
        producer.flush()
        producer.commit_transaction() if end == "commit" else producer.abort_transaction()
    producer.close()
    committed_read = read_group(bootstrap, prefix + "committed", topic, at_least(4), isolation_level="read_committed")
    same(["c0", "c1", "c2", "c3"], values(committed_read), "read_committed")
    everything = read_group(bootstrap, prefix + "uncommitted", topic, at_least(6), isolation_level="read_uncommitted")
    same(["c0", "c1", "c2", "a0", "a1", "c3"], values(everything), "read_uncommitted")
    observe("read-committed", positions(committed_read))
    observe("read-uncommitted", positions(everything))


def broker_restart_before(bootstrap, prefix):
    topic = prefix + "topic"
    create(admin_for(bootstrap), topic)
    produce_numbered(bootstrap, topic, 0, 5)
    read_group(bootstrap, prefix + "group", topic, at_least(5))


def broker_restart_after(bootstrap, prefix):
    topic, group = prefix + "topic", prefix + "group"
    admin = admin_for(bootstrap)
    # The coordinator answers COORDINATOR_LOAD_IN_PROGRESS until it has loaded its offsets again.
    same(5, eventually("the committed offset", lambda: committed(admin, group, topic)), "committed after the restart")
    same([5, 6, 7, 8, 9], produce_numbered(bootstrap, topic, 5, 5), "offsets after the restart")
    resumed = read_group(bootstrap, group, topic, reaches(9))
    same(numbered(5, 5), values(resumed), "resumed values")
    same(numbered(0, 10), values(read_group(bootstrap, prefix + "all", topic, at_least(10))), "everything")
    observe("resumed", positions(resumed))
    admin.close()


def error_unknown_topic(bootstrap, prefix):
    topic = prefix + "missing"
    admin = admin_for(bootstrap)
    consumer = consumer_for(bootstrap, prefix + "group", allow_auto_create_topics=False)
    found = consumer.partitions_for_topic(topic)
    observe("consumer-partitions-for", None if found is None else sorted(found))
    consumer.close()
    check(topic not in admin.list_topics(), "the topic was not created")
    # kafka-python drops a resource's error from DescribeConfigs and answers with no entries.
    observe("describe-configs", topic_configs(admin, topic, ["retention.ms"]))
    observe("delete", error_name("deleting it", lambda: admin.delete_topics([topic])))
    observe("add-partitions", error_name("adding partitions", lambda: admin.create_partitions({topic: NewPartitions(2)})))
    admin.close()


def error_message_too_large(bootstrap, prefix):
    topic, other = prefix + "topic", prefix + "default"
    admin = admin_for(bootstrap)
    create(admin, topic, 1, {"max.message.bytes": "2000"})
    create(admin, other)
    # max_request_size raised so the broker, not the client, judges the size.
    producer = producer_for(bootstrap, max_request_size=4_000_000, retries=0)
    observe("over-topic-limit", error_name("a 3000-byte record", lambda: producer.send(topic, value=b"x" * 3000, partition=0).get(30)))
    observe("over-broker-default", error_name("a 1.1 MB record",
                                              lambda: producer.send(other, value=b"x" * 1_100_000, partition=0).get(30)))
    observe("under-limit-offset", producer.send(topic, value=b"x" * 1000, partition=0).get(30).offset)
    producer.close()
    admin.close()


def error_invalid_topic(bootstrap, prefix):
    admin = admin_for(bootstrap)
    observe("space-and-bang", error_name('"bad name!"', lambda: create(admin, "bad name!")))
    observe("dot", error_name('"."', lambda: create(admin, ".")))
    observe("250-chars", error_name("250 characters", lambda: create(admin, "x" * 250)))
    observe("zero-partitions", error_name("0 partitions", lambda: create(admin, prefix + "zero", 0)))
    admin.close()


def error_invalid_config(bootstrap, prefix):
    topic = prefix + "topic"
    admin = admin_for(bootstrap)
    observe("create-bad-value", error_name("cleanup.policy=bogus", lambda: create(admin, topic, 1, {"cleanup.policy": "bogus"})))
    observe("create-bad-number", error_name("retention.ms=abc", lambda: create(admin, topic, 1, {"retention.ms": "abc"})))
    observe("create-unknown-name", error_name("no.such.config=1", lambda: create(admin, topic, 1, {"no.such.config": "1"})))
    check(topic not in admin.list_topics(), "a refused topic is not created")
    create(admin, topic)
    result = admin.alter_configs([ConfigResource("TOPIC", topic, {"retention.ms": "abc"})])["topic"][topic]
    observe("alter-bad-value", result if isinstance(result, str) else type(result).message)
    observe("configs-after", topic_configs(admin, topic, ["retention.ms"]))
    admin.close()


def newest_versions(bootstrap, prefix):
    """What a typical application does, for the runner to read the API versions kafka-python negotiates through its
    recording proxy (runner/versions.ts): an idempotent producer, a group consumer that commits, a
    consume-transform-produce transaction that commits the group's offsets with it, a read_committed reader, and the
    admin client describing the group, the cluster and the transaction."""
    topic, output, group, txn = prefix + "topic", prefix + "output", prefix + "group", prefix + "txn"
    admin = admin_for(bootstrap)
    create(admin, topic)
    create(admin, output)
    producer = KafkaProducer(**connection(bootstrap), acks="all")  # idempotent by default
    for i in range(3):
        producer.send(topic, key=f"k{i}".encode(), value=f"m{i}".encode(), partition=0).get(timeout=30)
    producer.close()
    same(numbered(0, 3), values(read_group(bootstrap, prefix + "reader", topic, at_least(3))), "read through a group")
    consumer = consumer_for(bootstrap, group, isolation_level="read_committed")
    transactional = KafkaProducer(**connection(bootstrap), transactional_id=txn)
    try:
        transactional.init_transactions()
        subscribe(consumer, topic)
        received = poll_until(consumer, at_least(3))
        transactional.begin_transaction()
        for message in received:
            transactional.send(output, key=message.key, value=message.value.upper(), partition=0)
        transactional.send_offsets_to_transaction({TopicPartition(topic, 0): OffsetAndMetadata(3, "", -1)}, consumer.group_metadata())
        transactional.commit_transaction()
    finally:
        transactional.close()
        consumer.close()
    transformed = read_group(bootstrap, prefix + "checker", output, at_least(3), isolation_level="read_committed")
    same(["M0", "M1", "M2"], values(transformed), "the transaction's output")
    same(3, committed(admin, group, topic), "the offset committed in the transaction")
    admin.describe_groups([group])
    admin.describe_cluster()
    admin.describe_transactions([txn])
    observe("output", positions(transformed))


def auth_failure(bootstrap, prefix):
    """An admin client with settings the broker refuses: the first connection failure kafka-python logs (its
    exception's class; a SASL one's text), and the exception the client raises."""
    failures = []

    class Failures(logging.Handler):  # "Bootstrap connection to %s failed: %s ...", "Connection failed: %s"
        def emit(self, record):
            failures.extend(arg for arg in record.args or () if isinstance(arg, Exception))

    handler = Failures()
    logger = logging.getLogger("kafka")
    logger.addHandler(handler)
    logger.propagate = False
    logging.disable(logging.NOTSET)  # the program silences kafka-python's logging; this one logger is read, not printed
    try:
        KafkaAdminClient(**connection(bootstrap), bootstrap_timeout_ms=5000).list_topics()
    except Exception as failure:  # the class is what is compared
        observe("raised", type(failure).__name__)
    else:
        raise AssertionError("the broker accepted the login; Kafka refuses it")
    finally:
        logging.disable(logging.CRITICAL)
    check(failures, "kafka-python logged no connection failure")
    observe("error", type(failures[0]).__name__)
    # A SASL failure carries the broker's text; a TLS one Python's ssl reason ("... (_ssl.c:1006)": no line number).
    observe("message", re.sub(r" \(_ssl\.c:\d+\)", "", str(failures[0])))


if __name__ == "__main__":
    run({
        "metadata": metadata, "topic-admin": topic_admin, "produce-consume": produce_consume, "group-rebalance": group_rebalance,
        "commit-resume": commit_resume, "offset-reset": offset_reset, "two-groups": two_groups, "seek-replay": seek_replay,
        "offsets-for-times": offsets_for_times, "idempotent-producer": idempotent_producer, "transactions": transactions,
        "broker-restart-before": broker_restart_before, "broker-restart-after": broker_restart_after,
        "error-unknown-topic": error_unknown_topic, "error-message-too-large": error_message_too_large,
        "error-invalid-topic": error_invalid_topic, "error-invalid-config": error_invalid_config,
        "newest-versions": newest_versions, "member": member, "auth-failure": auth_failure,
    })
