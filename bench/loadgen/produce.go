package main

import (
	"context"
	"math/rand"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

type produceOptions struct {
	brokers     []string
	topic       string
	records     int64
	size        int
	acks        string
	lingerMs    int
	batchBytes  int
	compression string
	producers   int
	inflight    int
}

func codec(name string) kgo.CompressionCodec {
	switch name {
	case "none":
		return kgo.NoCompression()
	case "lz4":
		return kgo.Lz4Compression()
	case "zstd":
		return kgo.ZstdCompression()
	case "snappy":
		return kgo.SnappyCompression()
	case "gzip":
		return kgo.GzipCompression()
	}
	fail("unknown -compression %q", name)
	return kgo.NoCompression()
}

func acks(name string) kgo.Acks {
	switch name {
	case "0":
		return kgo.NoAck()
	case "1":
		return kgo.LeaderAck()
	case "all", "-1":
		return kgo.AllISRAcks()
	}
	fail("unknown -acks %q", name)
	return kgo.LeaderAck()
}

// produce sends o.records records of o.size bytes, split between o.producers clients, and waits for every
// acknowledgement. The clock runs from the first Produce call to the last acknowledgement.
func produce(o produceOptions) result {
	if o.topic == "" || o.records < 1 || o.size < 0 || o.producers < 1 || o.inflight < 1 {
		fail("produce needs -topic, -records ≥ 1, -size ≥ 0, -producers ≥ 1, -inflight ≥ 1")
	}
	// One payload of random capital letters for every record, as kafka-producer-perf-test sends.
	payload := make([]byte, o.size)
	for i := range payload {
		payload[i] = byte('A' + rand.Intn(26))
	}
	// franz-go's batch limit is hard where the Java producer's batch.size is a target a larger record exceeds alone:
	// make room for one record and its batch overhead, as Java would send it.
	batchBytes := max(o.batchBytes, o.size+512)
	clients := make([]*kgo.Client, o.producers)
	for i := range clients {
		cl, err := kgo.NewClient(
			kgo.SeedBrokers(o.brokers...),
			kgo.DefaultProduceTopic(o.topic),
			kgo.RequiredAcks(acks(o.acks)),
			kgo.DisableIdempotentWrite(),
			kgo.ProducerLinger(time.Duration(o.lingerMs)*time.Millisecond),
			kgo.ProducerBatchMaxBytes(int32(batchBytes)),
			kgo.ProducerBatchCompression(codec(o.compression)),
			kgo.MaxProduceRequestsInflightPerBroker(o.inflight),
			kgo.MaxBufferedBytes(32<<20),
		)
		if err != nil {
			fail("client: %v", err)
		}
		// Metadata and the connection before the clock starts, as the Java tool's first send does not count either.
		if err := cl.Ping(context.Background()); err != nil {
			fail("cannot reach %v: %v", o.brokers, err)
		}
		clients[i] = cl
	}

	// Latency of every record in microseconds; a slot per record, written once, so no lock.
	latencies := make([]uint32, o.records)
	var next, errors atomic.Int64
	var firstError atomic.Value
	start := time.Now()
	var wg sync.WaitGroup
	for i, cl := range clients {
		share := o.records / int64(o.producers)
		if int64(i) < o.records%int64(o.producers) {
			share++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			done := func(r *kgo.Record, err error) {
				// The record's timestamp is time.Now() at Produce (monotonic): no clock read of our own.
				us := time.Since(r.Timestamp).Microseconds()
				latencies[next.Add(1)-1] = uint32(min(us, 1<<32-1))
				if err != nil {
					errors.Add(1)
					firstError.CompareAndSwap(nil, err.Error())
				}
			}
			for range share {
				cl.Produce(context.Background(), &kgo.Record{Value: payload}, done)
			}
			_ = cl.Flush(context.Background())
		}()
	}
	wg.Wait()
	seconds := time.Since(start).Seconds()
	for _, cl := range clients {
		cl.Close()
	}
	slices.Sort(latencies)
	r := result{
		Mode: "produce", Records: o.records, Bytes: o.records * int64(o.size), Seconds: seconds, Errors: errors.Load(),
		P50Ms: percentileMs(latencies, 50), P99Ms: percentileMs(latencies, 99),
	}
	if e, ok := firstError.Load().(string); ok {
		r.FirstError = e
	}
	return r
}

// percentileMs is the nearest-rank percentile of sorted microsecond samples, in milliseconds.
func percentileMs(sorted []uint32, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(float64(len(sorted))*p/100+0.999999999) - 1
	return float64(sorted[max(0, min(len(sorted)-1, rank))]) / 1000
}
