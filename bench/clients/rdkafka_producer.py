"""A librdkafka producer (confluent-kafka) for the benchmark: sends COUNT records of SIZE bytes as fast as the
client allows, then waits for every delivery report. Prints one JSON line:
{"records": n, "bytes": n, "seconds": s, "errors": n}.
    rdkafka_producer.py BOOTSTRAP TOPIC COUNT SIZE ACKS COMPRESSION [key=value ...]
The extra key=value pairs are librdkafka settings (batch.size, linger.ms, ...)."""
import json
import random
import sys
import time

from confluent_kafka import Producer


def main() -> int:
    bootstrap, topic, count, size, acks, compression, *extra = sys.argv[1:]
    count, size = int(count), int(size)
    config = {
        "bootstrap.servers": bootstrap,
        "acks": acks,
        "compression.type": compression,
        # No idempotence, as kafka-producer-perf-test's settings here: the same request pattern on both brokers.
        "enable.idempotence": False,
    }
    for pair in extra:
        key, _, value = pair.partition("=")
        config[key] = value
    producer = Producer(config)
    # Random capital letters, as kafka-producer-perf-test fills its payloads: lz4 then sees the same kind of input.
    rng = random.Random(0)
    payloads = [bytes(rng.randrange(65, 91) for _ in range(size)) for _ in range(64)]
    errors = 0

    def delivered(err, _msg):
        nonlocal errors
        if err is not None:
            errors += 1

    started = time.perf_counter()
    for i in range(count):
        while True:
            try:
                producer.produce(topic, payloads[i & 63], on_delivery=delivered)
                break
            except BufferError:
                producer.poll(0.005)
        if i & 1023 == 0:
            producer.poll(0)
    remaining = producer.flush(120)
    seconds = time.perf_counter() - started
    print(json.dumps({"records": count - remaining, "bytes": (count - remaining) * size, "seconds": seconds, "errors": errors + remaining}))
    return 0 if errors + remaining == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
