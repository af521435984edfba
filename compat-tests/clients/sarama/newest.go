// newest-versions: what a typical application does, for the runner to read the API versions Sarama negotiates
// through its recording proxy (runner/versions.ts). Sarama's versions follow config().Version (V4_0_0_0).
package main

import (
	"fmt"
	"strings"

	"github.com/IBM/sarama"
)

// newestVersions: an idempotent producer, a group consumer that commits, a transaction writing the records
// upper-cased and committing a group's offset with them, a read_committed reader and the admin describing the group.
func newestVersions() error {
	topic, output, group := prefix+"topic", prefix+"output", prefix+"group"
	for _, name := range []string{topic, output} {
		if err := create(name, 1); err != nil {
			return err
		}
	}
	idempotent, err := producer(func(c *sarama.Config) { c.Producer.Idempotent = true; c.Net.MaxOpenRequests = 1 })
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		message := &sarama.ProducerMessage{Topic: topic, Partition: 0, Key: sarama.StringEncoder(fmt.Sprintf("k%d", i)), Value: sarama.StringEncoder(fmt.Sprintf("m%d", i))}
		if _, _, err := idempotent.SendMessage(message); err != nil {
			idempotent.Close()
			return err
		}
	}
	idempotent.Close()
	read, err := readGroup(prefix+"reader", topic, nil, atLeast(3))
	if err != nil {
		return err
	}
	if err := same(numbered(0, 3), values(read), "read through a group"); err != nil {
		return err
	}
	transactional, err := producer(func(c *sarama.Config) {
		c.Producer.Idempotent = true
		c.Net.MaxOpenRequests = 1
		c.Producer.Transaction.ID = prefix + "txn"
	})
	if err != nil {
		return err
	}
	if err := transform(transactional, read, output, topic, group); err != nil {
		transactional.Close()
		return err
	}
	transactional.Close()
	transformed, err := readGroup(prefix+"checker", output, func(c *sarama.Config) { c.Consumer.IsolationLevel = sarama.ReadCommitted }, atLeast(3))
	if err != nil {
		return err
	}
	if err := same([]string{"M0", "M1", "M2"}, values(transformed), "the transaction's output"); err != nil {
		return err
	}
	adm, err := admin()
	if err != nil {
		return err
	}
	defer adm.Close()
	at, err := committed(adm, group, topic)
	if err != nil {
		return err
	}
	if err := same(int64(3), at, "the offset committed in the transaction"); err != nil {
		return err
	}
	described, err := adm.DescribeConsumerGroups([]string{group})
	if err != nil {
		return err
	}
	observe("output", positions(transformed))
	observe("group-state", described[0].State)
	return nil
}

// transform writes the records upper-cased to output in one transaction that also commits group's offset 3.
func transform(p sarama.SyncProducer, read []record, output, topic, group string) error {
	if err := p.BeginTxn(); err != nil {
		return err
	}
	for _, r := range read {
		if _, _, err := p.SendMessage(&sarama.ProducerMessage{Topic: output, Partition: 0, Value: sarama.StringEncoder(strings.ToUpper(string(r.Value)))}); err != nil {
			return err
		}
	}
	offsets := map[string][]*sarama.PartitionOffsetMetadata{topic: {{Partition: 0, Offset: 3, LeaderEpoch: -1}}}
	if err := p.AddOffsetsToTxn(offsets, group); err != nil {
		return err
	}
	return p.CommitTxn()
}
