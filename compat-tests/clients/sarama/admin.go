// Sarama admin scenarios: metadata, topic administration, error cases.
package main

import (
	"fmt"
	"strings"

	"github.com/IBM/sarama"
)

func metadata() error {
	adm, err := admin()
	if err != nil {
		return err
	}
	defer adm.Close()
	brokers, controller, err := adm.DescribeCluster()
	if err != nil {
		return err
	}
	if len(brokers) != 1 {
		return fmt.Errorf("want one broker, have %d", len(brokers))
	}
	broker := brokers[0]
	if err := same(bootstrap, broker.Addr(), "the advertised address"); err != nil {
		return err
	}
	if err := same(broker.ID(), controller, "the controller"); err != nil {
		return err
	}
	topic := prefix + "topic"
	if err := createTopic(adm, topic, 3, nil); err != nil {
		return err
	}
	described, err := adm.DescribeTopics([]string{topic})
	if err != nil {
		return err
	}
	if len(described) != 1 || described[0].Err != sarama.ErrNoError || len(described[0].Partitions) != 3 {
		return fmt.Errorf("described %v", described)
	}
	for _, p := range described[0].Partitions {
		one := fmt.Sprint([]int32{broker.ID()})
		if p.Leader != broker.ID() || fmt.Sprint(p.Replicas) != one || fmt.Sprint(p.Isr) != one {
			return fmt.Errorf("partition %d: leader %d replicas %v isr %v", p.ID, p.Leader, p.Replicas, p.Isr)
		}
	}
	observe("partitions", len(described[0].Partitions))
	again, err := failsWith("creating it again", func() error { return createTopic(adm, topic, 1, nil) })
	if err != nil {
		return err
	}
	observe("create-again", again)
	return nil
}

func topicAdmin() error {
	adm, err := admin()
	if err != nil {
		return err
	}
	defer adm.Close()
	topic := prefix + "topic"
	names := []string{"cleanup.policy", "max.message.bytes", "retention.ms", "segment.bytes"}
	if err := createTopic(adm, topic, 3, map[string]*string{"cleanup.policy": str("compact")}); err != nil {
		return err
	}
	created, err := topicConfigs(adm, topic, names)
	if err != nil {
		return err
	}
	if err := same("compact 604800000", created["cleanup.policy"]+" "+created["retention.ms"], "created configs"); err != nil {
		return err
	}
	observe("configs-created", created)
	if err := adm.IncrementalAlterConfig(sarama.TopicResource, topic, map[string]sarama.IncrementalAlterConfigsEntry{
		"retention.ms":   {Operation: sarama.IncrementalAlterConfigsOperationSet, Value: str("3600000")},
		"cleanup.policy": {Operation: sarama.IncrementalAlterConfigsOperationDelete},
	}, false); err != nil {
		return err
	}
	// The broker applies an altered config once the controller's record reaches it: read until it shows.
	if err := eventually("the altered configs", func() error {
		have, err := topicConfigs(adm, topic, []string{"cleanup.policy", "retention.ms"})
		if err != nil {
			return err
		}
		return same(map[string]string{"cleanup.policy": "delete", "retention.ms": "3600000"}, have, "configs")
	}); err != nil {
		return err
	}
	altered, err := topicConfigs(adm, topic, names)
	if err != nil {
		return err
	}
	observe("configs-altered", altered)
	if err := adm.CreatePartitions(topic, 5, nil, false); err != nil {
		return err
	}
	if err := eventually("5 partitions", func() error {
		described, err := adm.DescribeTopics([]string{topic})
		if err != nil {
			return err
		}
		return same(5, len(described[0].Partitions), "partitions")
	}); err != nil {
		return err
	}
	shrink, err := failsWith("shrinking to 2", func() error { return adm.CreatePartitions(topic, 2, nil, false) })
	if err != nil {
		return err
	}
	observe("shrink-partitions", shrink)
	if err := adm.DeleteTopic(topic); err != nil {
		return err
	}
	return eventually("the deleted topic to leave ListTopics", func() error {
		listed, err := adm.ListTopics()
		if err != nil {
			return err
		}
		if _, ok := listed[topic]; ok {
			return fmt.Errorf("still listed")
		}
		return nil
	})
}

func errorUnknownTopic() error {
	topic := prefix + "missing"
	c := config()
	c.Metadata.AllowAutoTopicCreation = false
	client, err := sarama.NewClient([]string{bootstrap}, c)
	if err != nil {
		return err
	}
	defer client.Close()
	partitions, err := failsWith("partitions of a missing topic", func() error { _, err := client.Partitions(topic); return err })
	if err != nil {
		return err
	}
	observe("client-partitions", partitions)
	adm, err := sarama.NewClusterAdminFromClient(client)
	if err != nil {
		return err
	}
	listed, err := adm.ListTopics()
	if err != nil {
		return err
	}
	if _, ok := listed[topic]; ok {
		return fmt.Errorf("the topic was created")
	}
	for key, work := range map[string]func() error{
		"describe-configs": func() error { _, err := topicConfigs(adm, topic, []string{"retention.ms"}); return err },
		"delete":           func() error { return adm.DeleteTopic(topic) },
		"add-partitions":   func() error { return adm.CreatePartitions(topic, 2, nil, false) },
	} {
		name, err := failsWith(key, work)
		if err != nil {
			return err
		}
		observe(key, name)
	}
	return nil
}

func errorMessageTooLarge() error {
	topic, other := prefix+"topic", prefix+"default"
	adm, err := admin()
	if err != nil {
		return err
	}
	defer adm.Close()
	if err := createTopic(adm, topic, 1, map[string]*string{"max.message.bytes": str("2000")}); err != nil {
		return err
	}
	if err := createTopic(adm, other, 1, nil); err != nil {
		return err
	}
	// Producer.MaxMessageBytes raised so the broker, not the client, judges the size.
	p, err := producer(func(c *sarama.Config) { c.Producer.MaxMessageBytes = 4_000_000; c.Producer.Retry.Max = 0 })
	if err != nil {
		return err
	}
	defer p.Close()
	send := func(topic string, size int) func() error {
		return func() error {
			_, _, err := p.SendMessage(&sarama.ProducerMessage{Topic: topic, Partition: 0, Value: sarama.ByteEncoder(make([]byte, size))})
			return err
		}
	}
	for _, c := range []struct {
		key, topic string
		size       int
	}{{"over-topic-limit", topic, 3000}, {"over-broker-default", other, 1_100_000}} {
		name, err := failsWith(c.key, send(c.topic, c.size))
		if err != nil {
			return err
		}
		observe(c.key, name)
	}
	_, offset, err := p.SendMessage(&sarama.ProducerMessage{Topic: topic, Partition: 0, Value: sarama.ByteEncoder(make([]byte, 1000))})
	if err != nil {
		return err
	}
	observe("under-limit-offset", offset)
	return nil
}

func errorInvalidTopic() error {
	adm, err := admin()
	if err != nil {
		return err
	}
	defer adm.Close()
	for _, c := range []struct {
		key, topic string
		partitions int32
	}{{"space-and-bang", "bad name!", 1}, {"dot", ".", 1}, {"250-chars", strings.Repeat("x", 250), 1}, {"zero-partitions", prefix + "zero", 0}} {
		name, err := failsWith(c.key, func() error { return createTopic(adm, c.topic, c.partitions, nil) })
		if err != nil {
			return err
		}
		observe(c.key, name)
	}
	return nil
}

func errorInvalidConfig() error {
	topic := prefix + "topic"
	adm, err := admin()
	if err != nil {
		return err
	}
	defer adm.Close()
	for _, c := range []struct{ key, name, value string }{
		{"create-bad-value", "cleanup.policy", "bogus"}, {"create-bad-number", "retention.ms", "abc"}, {"create-unknown-name", "no.such.config", "1"},
	} {
		name, err := failsWith(c.key, func() error { return createTopic(adm, topic, 1, map[string]*string{c.name: str(c.value)}) })
		if err != nil {
			return err
		}
		observe(c.key, name)
	}
	if err := createTopic(adm, topic, 1, nil); err != nil {
		return err
	}
	name, err := failsWith("retention.ms=abc", func() error {
		return adm.IncrementalAlterConfig(sarama.TopicResource, topic, map[string]sarama.IncrementalAlterConfigsEntry{
			"retention.ms": {Operation: sarama.IncrementalAlterConfigsOperationSet, Value: str("abc")}}, false)
	})
	if err != nil {
		return err
	}
	observe("alter-bad-value", name)
	after, err := topicConfigs(adm, topic, []string{"retention.ms"})
	if err != nil {
		return err
	}
	observe("configs-after", after)
	return nil
}
