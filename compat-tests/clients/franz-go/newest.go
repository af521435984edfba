// newest-versions: what a typical application does, for the runner to read the API versions franz-go negotiates
// through its recording proxy (runner/versions.ts).
package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
)

// newestVersions: an idempotent producer, a group consumer that commits, a consume-transform-produce transaction
// (GroupTransactSession: the group's offsets commit with the output), a read_committed reader and kadm describing
// the group and the transaction.
func newestVersions(ctx context.Context, bootstrap, prefix string) error {
	topic, output, group, txnID := prefix+"topic", prefix+"output", prefix+"group", prefix+"txn"
	client, adm, err := admin(bootstrap)
	if err != nil {
		return err
	}
	defer client.Close()
	for _, name := range []string{topic, output} {
		if err := createTopic(ctx, adm, name, 1, nil); err != nil {
			return err
		}
	}
	producer, err := newClient(kgo.SeedBrokers(bootstrap), kgo.RecordPartitioner(kgo.ManualPartitioner())) // idempotent by default
	if err != nil {
		return err
	}
	for _, v := range numbered(0, 3) {
		if err := producer.ProduceSync(ctx, &kgo.Record{Topic: topic, Partition: 0, Key: []byte("k" + v), Value: []byte(v)}).FirstErr(); err != nil {
			producer.Close()
			return err
		}
	}
	producer.Close()
	read, err := readGroup(ctx, bootstrap, prefix+"reader", topic, atLeast(3))
	if err != nil {
		return err
	}
	if err := same(numbered(0, 3), values(read), "read through a group"); err != nil {
		return err
	}
	if err := transform(ctx, bootstrap, topic, output, group, txnID); err != nil {
		return err
	}
	transformed, err := readGroup(ctx, bootstrap, prefix+"checker", output, atLeast(3), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if err != nil {
		return err
	}
	if err := same([]string{"M0", "M1", "M2"}, values(transformed), "the transaction's output"); err != nil {
		return err
	}
	at, err := committed(ctx, adm, group, topic)
	if err != nil {
		return err
	}
	if err := same(int64(3), at, "the offset committed in the transaction"); err != nil {
		return err
	}
	described, err := adm.DescribeGroups(ctx, group)
	if err != nil {
		return err
	}
	transactions, err := adm.DescribeTransactions(ctx, txnID)
	if err != nil {
		return err
	}
	txn, ok := transactions[txnID]
	if !ok || txn.Err != nil {
		return fmt.Errorf("describing %s: %v", txnID, txn.Err)
	}
	observe("output", positions(transformed))
	observe("group-state", described[group].State)
	observe("coordinator-view", map[string]any{"state": txn.State, "producer-epoch": txn.ProducerEpoch, "timeout-ms": txn.TimeoutMillis})
	return nil
}

// transform reads the three records in a group and writes them upper-cased to output in one transaction that
// also commits the group's offsets.
func transform(ctx context.Context, bootstrap, topic, output, group, txnID string) error {
	session, err := kgo.NewGroupTransactSession(kgo.SeedBrokers(bootstrap), kgo.TransactionalID(txnID), kgo.ConsumerGroup(group),
		kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return err
	}
	defer session.Close()
	var received []*kgo.Record
	pollCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	for len(received) < 3 {
		fetches := session.PollFetches(pollCtx)
		if pollCtx.Err() != nil {
			return fmt.Errorf("transform: have %d records", len(received))
		}
		if errs := fetches.Errors(); len(errs) > 0 {
			return fmt.Errorf("transform fetch: %w", errs[0].Err)
		}
		received = append(received, fetches.Records()...)
	}
	if err := session.Begin(); err != nil {
		return err
	}
	for _, r := range received {
		out := &kgo.Record{Topic: output, Partition: 0, Key: r.Key, Value: []byte(strings.ToUpper(string(r.Value)))}
		if err := session.ProduceSync(ctx, out).FirstErr(); err != nil {
			return err
		}
	}
	committed, err := session.End(ctx, kgo.TryCommit)
	if err != nil {
		return err
	}
	if !committed {
		return fmt.Errorf("the transaction was aborted")
	}
	return nil
}
