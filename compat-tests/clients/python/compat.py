"""Shared by the Python clients' scenario programs: argument handling and polling (see runner/external.ts)."""
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


def run(scenarios):
    """Runs the scenario named on the command line: <scenario> <bootstrap> <name-prefix>."""
    if len(sys.argv) != 4 or sys.argv[1] not in scenarios:
        print(f"usage: {sys.argv[0]} <{'|'.join(scenarios)}> <bootstrap> <name-prefix>", file=sys.stderr)
        sys.exit(2)
    name, bootstrap, prefix = sys.argv[1:]
    try:
        scenarios[name](bootstrap, prefix)
    except AssertionError as error:
        print(f"assertion failed: {error}", file=sys.stderr)
        sys.exit(1)

