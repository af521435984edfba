"""Shared by the Python clients' scenario programs: argument handling and polling (see runner/external.ts)."""
import json
import os
import subprocess
import sys
import time


def eventually(what, probe, limit=30):
    """Polls probe() until it returns something other than None; the limit only stops a broken run hanging."""
    deadline = time.monotonic() + limit
    last_error = None
    while True:
        try:
            value = probe()
            if value is not None:
                return value
        except Exception as error:  # the probe may fail while Kafka settles
            last_error = error
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}" + (f": {last_error}" if last_error else ""))
        time.sleep(0.2)


def observe(key, value):
    """Records a deterministic result for the differential mode (see runner/external.ts)."""
    print(f"OBSERVE {key} {json.dumps(value, sort_keys=True)}", flush=True)


def check(condition, what):
    if not condition:
        raise AssertionError(what)


def same(want, have, what):
    if want != have:
        raise AssertionError(f"{what}: want {want!r}, have {have!r}")


def reset_offsets(bootstrap, group, topic, *how):
    """kafka-consumer-groups --reset-offsets ... --execute; returns "partition:new-offset" rows."""
    tool = os.path.join(os.environ["COMPAT_BIN_DIR"], "kafka-consumer-groups")
    done = subprocess.run([tool, "--bootstrap-server", bootstrap, "--group", group, "--topic", topic, "--reset-offsets", *how,
                           "--execute"], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise AssertionError(f"kafka-consumer-groups: {done.stderr.strip() or done.stdout.strip()}")
    rows = [line.split() for line in done.stdout.splitlines()]
    return [f"{row[2]}:{row[3]}" for row in rows if len(row) >= 4 and row[0] == group and row[1] == topic]


def run(scenarios):
    """Runs the scenario named on the command line: <scenario> <bootstrap> <name-prefix>."""
    if len(sys.argv) == 5 and sys.argv[1] == "member" and "member" in scenarios:
        scenarios["member"](*sys.argv[2:])
        return
    if len(sys.argv) != 4 or sys.argv[1] not in scenarios:
        print(f"usage: {sys.argv[0]} <{'|'.join(scenarios)}> <bootstrap> <name-prefix>", file=sys.stderr)
        sys.exit(2)
    name, bootstrap, prefix = sys.argv[1:]
    try:
        scenarios[name](bootstrap, prefix)
    except AssertionError as error:
        print(f"assertion failed: {error}", file=sys.stderr)
        sys.exit(1)

