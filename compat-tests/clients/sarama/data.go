// Sarama data scenarios: produce and read back, seek, offsets for timestamps, idempotence, transactions.
package main

import (
	"bytes"
	"fmt"
	"time"

	"github.com/IBM/sarama"
)

func produceConsume() error {
	topic := prefix + "topic"
	if err := create(topic, 1); err != nil {
		return err
	}
	type message struct {
		key, value []byte
		headers    []sarama.RecordHeader
	}
	// Near the broker's default limit (max.message.bytes 1048588 for the whole batch) yet under it.
	plain := []message{
		{[]byte("k1"), []byte("v1"), []sarama.RecordHeader{{Key: []byte("h1"), Value: []byte("x")}, {Key: []byte("h2"), Value: []byte("y")}}},
		{nil, []byte("no key"), nil}, {[]byte("empty"), []byte{}, nil}, {[]byte("null"), nil, nil},
		{[]byte("big"), bytes.Repeat([]byte("x"), 1_000_000), nil},
	}
	codecs := []sarama.CompressionCodec{sarama.CompressionNone, sarama.CompressionGZIP, sarama.CompressionSnappy, sarama.CompressionLZ4, sarama.CompressionZSTD}
	var sent []message
	var offsets []int64
	for _, codec := range codecs {
		batch := plain
		if codec != sarama.CompressionNone {
			batch = []message{{[]byte(codec.String()), []byte("compressed with " + codec.String()), nil}}
		}
		p, err := producer(func(c *sarama.Config) { c.Producer.Compression = codec; c.Producer.MaxMessageBytes = 2_000_000 })
		if err != nil {
			return err
		}
		for _, m := range batch {
			msg := &sarama.ProducerMessage{Topic: topic, Partition: 0, Headers: m.headers}
			if m.key != nil {
				msg.Key = sarama.ByteEncoder(m.key)
			}
			if m.value != nil {
				msg.Value = sarama.ByteEncoder(m.value)
			}
			_, offset, err := p.SendMessage(msg)
			if err != nil {
				p.Close()
				return fmt.Errorf("%s: %w", codec, err)
			}
			offsets = append(offsets, offset)
		}
		p.Close()
		sent = append(sent, batch...)
	}
	observe("offsets", offsets)
	received, err := readGroup(prefix+"group", topic, func(c *sarama.Config) { c.Consumer.Fetch.Default = 2_000_000 }, atLeast(len(sent)))
	if err != nil {
		return err
	}
	for i, m := range sent {
		r := received[i]
		headers := ""
		for _, h := range r.Headers {
			headers += string(h.Key) + "=" + string(h.Value) + ";"
		}
		wantHeaders := ""
		for _, h := range m.headers {
			wantHeaders += string(h.Key) + "=" + string(h.Value) + ";"
		}
		if r.Offset != int64(i) || !sameBytes(r.Key, m.key) || !sameBytes(r.Value, m.value) || headers != wantHeaders {
			return fmt.Errorf("record %d: offset %d key %q value of %d bytes (nil %v) headers %s", i, r.Offset, r.Key, len(r.Value), r.Value == nil, headers)
		}
	}
	return nil
}

func sameBytes(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }

// seekReplay reads 0..9 with a partition consumer, then starts one at offset 3 (Sarama's way to seek): 3..9 again.
func seekReplay() error {
	topic := prefix + "topic"
	if err := create(topic, 1); err != nil {
		return err
	}
	if _, err := produceNumbered(topic, 0, 10); err != nil {
		return err
	}
	consumer, err := sarama.NewConsumer([]string{bootstrap}, config())
	if err != nil {
		return err
	}
	defer consumer.Close()
	var offsets []int64
	for _, start := range []int64{sarama.OffsetOldest, 3} {
		partition, err := consumer.ConsumePartition(topic, 0, start)
		if err != nil {
			return err
		}
		timeout := time.After(limit)
		for last := int64(-1); last < 9; {
			select {
			case m := <-partition.Messages():
				offsets = append(offsets, m.Offset)
				last = m.Offset
			case err := <-partition.Errors():
				partition.Close()
				return err
			case <-timeout:
				partition.Close()
				return fmt.Errorf("have offsets %v", offsets)
			}
		}
		partition.Close()
	}
	if err := same([]int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9}, offsets, "offsets"); err != nil {
		return err
	}
	observe("offsets", offsets)
	return nil
}

const baseTime = int64(1_700_000_000_000)

func offsetsForTimes() error {
	topic := prefix + "topic"
	if err := create(topic, 1); err != nil {
		return err
	}
	p, err := producer(nil)
	if err != nil {
		return err
	}
	for i := int64(0); i < 5; i++ {
		if _, _, err := p.SendMessage(&sarama.ProducerMessage{Topic: topic, Partition: 0, Value: sarama.StringEncoder(fmt.Sprintf("t%d", i)),
			Timestamp: time.UnixMilli(baseTime + i*1000)}); err != nil {
			p.Close()
			return err
		}
	}
	p.Close()
	client, err := sarama.NewClient([]string{bootstrap}, config())
	if err != nil {
		return err
	}
	defer client.Close()
	answers := map[string]int64{}
	for key, at := range map[string]int64{"before": baseTime - 1000, "exact": baseTime + 2000, "between": baseTime + 2500, "after": baseTime + 60_000,
		"earliest": sarama.OffsetOldest, "latest": sarama.OffsetNewest} {
		offset, err := client.GetOffset(topic, 0, at)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		answers[key] = offset
	}
	if err := same(map[string]int64{"before": 0, "exact": 2, "between": 3, "after": -1, "earliest": 0, "latest": 5}, answers, "offsets"); err != nil {
		return err
	}
	observe("offsets", answers)
	return nil
}

func idempotentProducer() error {
	topic := prefix + "topic"
	if err := create(topic, 1); err != nil {
		return err
	}
	p, err := producer(func(c *sarama.Config) { c.Producer.Idempotent = true; c.Net.MaxOpenRequests = 1 })
	if err != nil {
		return err
	}
	var offsets []int64
	for i := 0; i < 9; i++ {
		_, offset, err := p.SendMessage(&sarama.ProducerMessage{Topic: topic, Partition: 0, Value: sarama.StringEncoder(fmt.Sprintf("m%d", i))})
		if err != nil {
			p.Close()
			return err
		}
		offsets = append(offsets, offset)
	}
	p.Close()
	if err := same([]int64{0, 1, 2, 3, 4, 5, 6, 7, 8}, offsets, "offsets"); err != nil {
		return err
	}
	observe("offsets", offsets)
	received, err := readGroup(prefix+"group", topic, nil, atLeast(9))
	if err != nil {
		return err
	}
	return same(numbered(0, 9), values(received), "read back")
}

func transactions() error {
	topic := prefix + "topic"
	if err := create(topic, 1); err != nil {
		return err
	}
	p, err := producer(func(c *sarama.Config) {
		c.Producer.Idempotent = true
		c.Net.MaxOpenRequests = 1
		c.Producer.Transaction.ID = prefix + "txn"
	})
	if err != nil {
		return err
	}
	// Committed (offsets 0-2, marker 3), aborted (4-5, marker 6), committed (7, marker 8).
	for _, step := range []struct {
		commit bool
		values []string
	}{{true, []string{"c0", "c1", "c2"}}, {false, []string{"a0", "a1"}}, {true, []string{"c3"}}} {
		if err := p.BeginTxn(); err != nil {
			p.Close()
			return err
		}
		for _, v := range step.values {
			if _, _, err := p.SendMessage(&sarama.ProducerMessage{Topic: topic, Partition: 0, Value: sarama.StringEncoder(v)}); err != nil {
				p.Close()
				return err
			}
		}
		end := p.AbortTxn
		if step.commit {
			end = p.CommitTxn
		}
		if err := end(); err != nil {
			p.Close()
			return err
		}
	}
	p.Close()
	committedRead, err := readGroup(prefix+"committed", topic, func(c *sarama.Config) { c.Consumer.IsolationLevel = sarama.ReadCommitted }, atLeast(4))
	if err != nil {
		return err
	}
	if err := same([]string{"c0", "c1", "c2", "c3"}, values(committedRead), "read_committed"); err != nil {
		return err
	}
	everything, err := readGroup(prefix+"uncommitted", topic, nil, atLeast(6))
	if err != nil {
		return err
	}
	if err := same([]string{"c0", "c1", "c2", "a0", "a1", "c3"}, values(everything), "read_uncommitted"); err != nil {
		return err
	}
	observe("read-committed", positions(committedRead))
	observe("read-uncommitted", positions(everything))
	return nil
}
