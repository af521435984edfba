package main

import (
	"context"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

type fetchOptions struct {
	brokers           []string
	topic             string
	fetchMaxBytes     int
	partitionMaxBytes int
}

// fetch reads every partition of the topic from its start offset to the end offset listed before reading, with no
// consumer group (direct assignment: no join, no commits), and counts the bytes of keys and values.
// The clock runs from the first poll to the last record.
func fetch(o fetchOptions) result {
	if o.topic == "" {
		fail("fetch needs -topic")
	}
	ctx := context.Background()
	admin, err := kgo.NewClient(kgo.SeedBrokers(o.brokers...))
	if err != nil {
		fail("client: %v", err)
	}
	adm := kadm.NewClient(admin)
	starts, err := adm.ListStartOffsets(ctx, o.topic)
	if err == nil {
		err = starts.Error()
	}
	if err != nil {
		fail("list start offsets of %s: %v", o.topic, err)
	}
	ends, err := adm.ListEndOffsets(ctx, o.topic)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		fail("list end offsets of %s: %v", o.topic, err)
	}
	admin.Close()
	from := map[int32]kgo.Offset{}
	remaining := map[int32]int64{}
	var expected int64
	starts.Each(func(s kadm.ListedOffset) {
		end, _ := ends.Lookup(o.topic, s.Partition)
		if end.Offset > s.Offset {
			from[s.Partition] = kgo.NewOffset().At(s.Offset)
			remaining[s.Partition] = end.Offset
			expected += end.Offset - s.Offset
		}
	})
	if expected == 0 {
		fail("topic %s is empty", o.topic)
	}

	cl, err := kgo.NewClient(
		kgo.SeedBrokers(o.brokers...),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{o.topic: from}),
		kgo.FetchMaxBytes(int32(o.fetchMaxBytes)),
		kgo.FetchMaxPartitionBytes(int32(o.partitionMaxBytes)),
	)
	if err != nil {
		fail("client: %v", err)
	}
	defer cl.Close()
	// Metadata and a connection before the clock starts (the Java tool's figure leaves its group join out).
	if err := cl.Ping(ctx); err != nil {
		fail("cannot reach %v: %v", o.brokers, err)
	}
	var records, bytes int64
	start := time.Now()
	for len(remaining) > 0 {
		fetches := cl.PollFetches(ctx)
		if errs := fetches.Errors(); len(errs) > 0 {
			fail("fetch %s[%d]: %v", errs[0].Topic, errs[0].Partition, errs[0].Err)
		}
		fetches.EachPartition(func(p kgo.FetchTopicPartition) {
			end, wanted := remaining[p.Partition]
			for _, r := range p.Records {
				if !wanted || r.Offset >= end {
					continue
				}
				records++
				bytes += int64(len(r.Key) + len(r.Value))
				if r.Offset == end-1 {
					delete(remaining, p.Partition)
				}
			}
		})
	}
	return result{Mode: "fetch", Records: records, Bytes: bytes, Seconds: time.Since(start).Seconds()}
}
