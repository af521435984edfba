// franz-go scenarios for the compat runner.
// Usage: franz-go-compat <scenario> <bootstrap> <name-prefix>; exit 0 = pass, 1 = fail with the reason on stderr;
// "OBSERVE <key> <json>" lines feed the differential mode (see runner/external.ts).
// "member <bootstrap> <group> <topic>" runs one group member until killed (group-rebalance's crash);
// "consumer-member <bootstrap> <group> <topic> [instance]" the same under the consumer protocol.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// limit stops a broken run from hanging; it is not a claim about speed.
const limit = 60 * time.Second

func main() {
	scenarios := map[string]func(ctx context.Context, bootstrap, prefix string) error{
		"metadata": metadata, "produce-consume": produceConsume, "topic-admin": topicAdmin, "group-rebalance": groupRebalance,
		"commit-resume": commitResume, "offset-reset": offsetReset, "two-groups": twoGroups, "seek-replay": seekReplay,
		"offsets-for-times": offsetsForTimes, "idempotent-producer": idempotentProducer, "transactions": transactions,
		"broker-restart-before": brokerRestartBefore, "broker-restart-after": brokerRestartAfter,
		"error-unknown-topic": errorUnknownTopic, "error-message-too-large": errorMessageTooLarge,
		"error-invalid-topic": errorInvalidTopic, "error-invalid-config": errorInvalidConfig,
		"newest-versions":          newestVersions,
		"consumer-group-rebalance": consumerGroupRebalance, "consumer-commit-resume": consumerCommitResume,
		"consumer-static-members": consumerStaticMembers,
		"auth-failure":            authFailure,
	}
	if len(os.Args) == 5 && os.Args[1] == "member" {
		runMember(context.Background(), os.Args[2], os.Args[3], os.Args[4], &member{}, classicMember)
		return
	}
	if (len(os.Args) == 5 || len(os.Args) == 6) && os.Args[1] == "consumer-member" {
		instance := ""
		if len(os.Args) == 6 {
			instance = os.Args[5]
		}
		runMember(context.Background(), os.Args[2], os.Args[3], os.Args[4], &member{}, consumerMember(instance))
		return
	}
	if len(os.Args) != 4 || scenarios[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: franz-go-compat <scenario> <bootstrap> <name-prefix>")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*limit)
	defer cancel()
	if err := scenarios[os.Args[1]](ctx, os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func admin(bootstrap string, opts ...kgo.Opt) (*kgo.Client, *kadm.Client, error) {
	client, err := newClient(append([]kgo.Opt{kgo.SeedBrokers(bootstrap)}, opts...)...)
	if err != nil {
		return nil, nil, err
	}
	return client, kadm.NewClient(client), nil
}

// eventually polls until check returns nil or the limit passes.
func eventually(ctx context.Context, what string, check func() error) error {
	deadline := time.Now().Add(limit)
	for {
		err := check()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("gave up waiting for %s: %w", what, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func createTopic(ctx context.Context, adm *kadm.Client, topic string, partitions int32, configs map[string]*string) error {
	response, err := adm.CreateTopic(ctx, partitions, -1, configs, topic)
	if err != nil {
		return err
	}
	return response.Err
}

func metadata(ctx context.Context, bootstrap, prefix string) error {
	client, adm, err := admin(bootstrap)
	if err != nil {
		return err
	}
	defer client.Close()
	cluster, err := adm.BrokerMetadata(ctx)
	if err != nil {
		return err
	}
	if len(cluster.Brokers) != 1 {
		return fmt.Errorf("want one broker, have %v", cluster.Brokers)
	}
	broker := cluster.Brokers[0]
	if address := fmt.Sprintf("%s:%d", broker.Host, broker.Port); address != bootstrap {
		return fmt.Errorf("broker advertises %s, want %s", address, bootstrap)
	}
	if cluster.Controller != broker.NodeID || cluster.Cluster == "" {
		return fmt.Errorf("controller %d, cluster id %q", cluster.Controller, cluster.Cluster)
	}
	topic := prefix + "topic"
	if err := createTopic(ctx, adm, topic, 3, nil); err != nil {
		return err
	}
	described, err := adm.Metadata(ctx, topic)
	if err != nil {
		return err
	}
	detail := described.Topics[topic]
	if detail.Err != nil || len(detail.Partitions) != 3 {
		return fmt.Errorf("topic %s: error %v, %d partitions", topic, detail.Err, len(detail.Partitions))
	}
	for id, partition := range detail.Partitions {
		one := []int32{broker.NodeID}
		if partition.Leader != broker.NodeID || fmt.Sprint(partition.Replicas) != fmt.Sprint(one) || fmt.Sprint(partition.ISR) != fmt.Sprint(one) {
			return fmt.Errorf("partition %d: leader %d replicas %v isr %v", id, partition.Leader, partition.Replicas, partition.ISR)
		}
	}
	return nil
}

type message struct {
	key, value []byte
	headers    []kgo.RecordHeader
}

func describe(key, value []byte, headers []kgo.RecordHeader) string {
	show := func(b []byte) string {
		if b == nil {
			return "<null>"
		}
		if len(b) > 32 {
			return fmt.Sprintf("<%d bytes>", len(b))
		}
		return strconv.Quote(string(b))
	}
	return fmt.Sprintf("key=%s value=%s headers=%v", show(key), show(value), headers)
}

func sameBytes(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }

func produceConsume(ctx context.Context, bootstrap, prefix string) error {
	topic := prefix + "topic"
	setup, adm, err := admin(bootstrap)
	if err != nil {
		return err
	}
	defer setup.Close()
	if err := createTopic(ctx, adm, topic, 1, nil); err != nil {
		return err
	}
	plain := []message{
		{[]byte("k1"), []byte("v1"), []kgo.RecordHeader{{Key: "h1", Value: []byte("x")}, {Key: "h2", Value: []byte("y")}}},
		{nil, []byte("no key"), nil},
		{[]byte("empty"), []byte{}, nil},
		{[]byte("null"), nil, nil},
		// Near the broker's default limit (max.message.bytes 1048588 for the whole batch) yet under it.
		{[]byte("big"), bytes.Repeat([]byte("x"), 1_000_000), nil},
	}
	codecs := map[string]kgo.CompressionCodec{"none": kgo.NoCompression(), "gzip": kgo.GzipCompression(),
		"snappy": kgo.SnappyCompression(), "lz4": kgo.Lz4Compression(), "zstd": kgo.ZstdCompression()}
	order := []string{"none", "gzip", "snappy", "lz4", "zstd"}
	var sent []message
	for _, name := range order {
		batch := plain
		if name != "none" {
			batch = []message{{[]byte(name), []byte("compressed with " + name), nil}}
		}
		producer, err := newClient(kgo.SeedBrokers(bootstrap), kgo.ProducerBatchCompression(codecs[name]), kgo.DisableIdempotentWrite(),
			kgo.ProducerBatchMaxBytes(2_000_000))
		if err != nil {
			return err
		}
		var records []*kgo.Record
		for _, m := range batch {
			records = append(records, &kgo.Record{Topic: topic, Key: m.key, Value: m.value, Headers: m.headers})
		}
		err = producer.ProduceSync(ctx, records...).FirstErr()
		producer.Close()
		if err != nil {
			return fmt.Errorf("produce with %s: %w", name, err)
		}
		sent = append(sent, batch...)
	}

	consumer, err := newClient(kgo.SeedBrokers(bootstrap), kgo.ConsumerGroup(prefix+"group"), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		return err
	}
	defer consumer.Close()
	var received []*kgo.Record
	pollCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	for len(received) < len(sent) {
		fetches := consumer.PollFetches(pollCtx)
		if pollCtx.Err() != nil {
			return fmt.Errorf("have %d of %d messages", len(received), len(sent))
		}
		if errs := fetches.Errors(); len(errs) > 0 {
			return fmt.Errorf("fetch: %v", errs[0].Err)
		}
		received = append(received, fetches.Records()...)
	}
	for i, m := range sent {
		r := received[i]
		if r.Offset != int64(i) || !sameBytes(r.Key, m.key) || !sameBytes(r.Value, m.value) || fmt.Sprint(r.Headers) != fmt.Sprint(m.headers) && !(len(r.Headers) == 0 && len(m.headers) == 0) {
			return fmt.Errorf("message %d: have offset %d %s, want %s", i, r.Offset, describe(r.Key, r.Value, r.Headers), describe(m.key, m.value, m.headers))
		}
	}
	return nil
}

func topicConfigs(ctx context.Context, adm *kadm.Client, topic string) (map[string]string, error) {
	described, err := adm.DescribeTopicConfigs(ctx, topic)
	if err != nil {
		return nil, err
	}
	resource, err := described.On(topic, nil)
	if err != nil {
		return nil, err
	}
	if resource.Err != nil {
		return nil, resource.Err
	}
	values := map[string]string{}
	for _, config := range resource.Configs {
		if config.Key == "cleanup.policy" || config.Key == "retention.ms" {
			values[config.Key] = config.MaybeValue()
		}
	}
	return values, nil
}

func expectConfigs(ctx context.Context, adm *kadm.Client, topic string, want map[string]string) error {
	have, err := topicConfigs(ctx, adm, topic)
	if err != nil {
		return err
	}
	if fmt.Sprint(have) != fmt.Sprint(want) {
		return fmt.Errorf("configs: have %v, want %v", have, want)
	}
	return nil
}

func topicAdmin(ctx context.Context, bootstrap, prefix string) error {
	client, adm, err := admin(bootstrap)
	if err != nil {
		return err
	}
	defer client.Close()
	topic := prefix + "topic"
	if err := createTopic(ctx, adm, topic, 3, map[string]*string{"cleanup.policy": kadm.StringPtr("compact")}); err != nil {
		return err
	}
	if err := expectConfigs(ctx, adm, topic, map[string]string{"cleanup.policy": "compact", "retention.ms": "604800000"}); err != nil {
		return err
	}
	altered, err := adm.AlterTopicConfigs(ctx, []kadm.AlterConfig{{Op: kadm.SetConfig, Name: "retention.ms", Value: kadm.StringPtr("3600000")}}, topic)
	if err != nil {
		return err
	}
	for _, response := range altered {
		if response.Err != nil {
			return response.Err
		}
	}
	// The broker applies an altered config once the controller's record reaches it: read until it shows.
	if err := eventually(ctx, "the altered config", func() error {
		return expectConfigs(ctx, adm, topic, map[string]string{"cleanup.policy": "compact", "retention.ms": "3600000"})
	}); err != nil {
		return err
	}
	grown, err := adm.UpdatePartitions(ctx, 5, topic)
	if err != nil {
		return err
	}
	if response, _ := grown.On(topic, nil); response.Err != nil {
		return response.Err
	}
	if err := eventually(ctx, "5 partitions", func() error {
		described, err := adm.Metadata(ctx, topic)
		if err != nil {
			return err
		}
		if n := len(described.Topics[topic].Partitions); n != 5 {
			return fmt.Errorf("%d partitions", n)
		}
		return nil
	}); err != nil {
		return err
	}
	deleted, err := adm.DeleteTopics(ctx, topic)
	if err != nil {
		return err
	}
	if response, _ := deleted.On(topic, nil); response.Err != nil {
		return response.Err
	}
	return eventually(ctx, "the deleted topic to leave the topic list", func() error {
		listed, err := adm.ListTopics(ctx)
		if err != nil {
			return err
		}
		if listed.Has(topic) {
			return errors.New("still listed")
		}
		return nil
	})
}
