// The benchmark's load generator: produces or fetches as fast as a broker allows while costing the client as
// little CPU as possible (franz-go, one shared payload, no per-record work beyond a timestamp), so that on a
// machine the client shares with the broker, the broker and not the client is the limit.
//
//	loadgen produce -brokers H:P -topic T -records N -size S [-acks 1|all|0] [-linger-ms 5] [-batch-bytes 65536]
//	                [-compression none|lz4|zstd|snappy|gzip] [-producers C] [-inflight 5]
//	loadgen fetch   -brokers H:P -topic T [-fetch-max-bytes 52428800] [-partition-max-bytes 1048576]
//
// Prints one JSON line on stdout (see result); errors go to stderr with exit status 1.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// result is the one line the benchmark parses (bench/compare/loadgen.ts).
type result struct {
	Mode    string  `json:"mode"`
	Records int64   `json:"records"`
	Bytes   int64   `json:"bytes"`
	Seconds float64 `json:"seconds"`
	// Produce only: records not acknowledged, and the time from Produce to acknowledgement.
	Errors int64   `json:"errors"`
	P50Ms  float64 `json:"p50Ms,omitempty"`
	P99Ms  float64 `json:"p99Ms,omitempty"`
	// The first error seen, for the report.
	FirstError string `json:"firstError,omitempty"`
	// This process's own CPU time (user+system, all threads) from start to exit: what the client cost.
	ClientCPUSeconds float64 `json:"clientCpuSeconds"`
}

func ownCPUSeconds() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()).Seconds()
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "loadgen: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	if len(os.Args) < 2 || (os.Args[1] != "produce" && os.Args[1] != "fetch") {
		fail("usage: loadgen produce|fetch -brokers H:P -topic T [options]")
	}
	mode := os.Args[1]
	flags := flag.NewFlagSet(mode, flag.ExitOnError)
	brokers := flags.String("brokers", "127.0.0.1:9092", "bootstrap servers, comma-separated")
	topic := flags.String("topic", "", "topic (must exist)")
	var r result
	switch mode {
	case "produce":
		o := produceOptions{}
		flags.Int64Var(&o.records, "records", 1_000_000, "records to produce in all")
		flags.IntVar(&o.size, "size", 1024, "bytes of each record's value (no key)")
		flags.StringVar(&o.acks, "acks", "1", "0, 1 or all")
		flags.IntVar(&o.lingerMs, "linger-ms", 5, "linger before a batch is sent")
		flags.IntVar(&o.batchBytes, "batch-bytes", 65536, "largest record batch")
		flags.StringVar(&o.compression, "compression", "none", "none, lz4, zstd, snappy or gzip")
		flags.IntVar(&o.producers, "producers", 1, "producer clients, each with its own connection, sharing the records")
		flags.IntVar(&o.inflight, "inflight", 5, "produce requests in flight per connection (the Java producer's default)")
		_ = flags.Parse(os.Args[2:])
		o.brokers, o.topic = splitBrokers(*brokers), *topic
		r = produce(o)
	case "fetch":
		o := fetchOptions{}
		flags.IntVar(&o.fetchMaxBytes, "fetch-max-bytes", 50<<20, "fetch.max.bytes")
		flags.IntVar(&o.partitionMaxBytes, "partition-max-bytes", 1<<20, "max.partition.fetch.bytes")
		_ = flags.Parse(os.Args[2:])
		o.brokers, o.topic = splitBrokers(*brokers), *topic
		r = fetch(o)
	}
	r.ClientCPUSeconds = ownCPUSeconds()
	line, _ := json.Marshal(r)
	fmt.Println(string(line))
}

func splitBrokers(list string) []string {
	var out []string
	for _, b := range strings.Split(list, ",") {
		if b = strings.TrimSpace(b); b != "" {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		fail("-brokers is empty")
	}
	return out
}
