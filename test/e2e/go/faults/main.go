// franz-go (idempotent by default) through injected faults: adds rules over gregor's HTTP API (NOT_LEADER_OR_FOLLOWER
// to the next 3 Produce requests on the topic, a connection dropped after one Produce is handled), produces `count`
// records one at a time, removes the rules (DELETE /v1/faults), then reads the partition from the start and prints
// each value on its own line.
//
//	faults <bootstrap> <http base> <topic> <count>
//
// With a fifth argument, an error name: the next 3 Produce requests on the topic get that error while a do-nothing
// rule on Metadata counts the client's metadata requests; produces 5 records and prints "metadata <requests>" and
// "acked <records>". A NOT_LEADER_OR_FOLLOWER carrying the current leader (KIP-951) needs no metadata refresh.
//
//	faults <bootstrap> <http base> <topic> 5 <error>
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

func call(method, url, body string) string {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	must(err)
	if body != "" {
		req.Header.Set("content-type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	must(err)
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		must(fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, text))
	}
	return string(text)
}

func metadataRequests(ctx context.Context, bootstrap, base, topic string, count int, errorName string) {
	producer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.DefaultProduceTopic(topic), kgo.RetryBackoffFn(func(int) time.Duration { return 20 * time.Millisecond }))
	must(err)
	defer producer.Close()
	// The partition's leader and epoch are known before the faults.
	must(producer.ProduceSync(ctx, &kgo.Record{Partition: 0, Value: []byte("warm")}).FirstErr())
	call("POST", base+"/v1/faults", `{"api":"Metadata","action":"delay","ms":0}`)
	call("POST", base+"/v1/faults", `{"api":"Produce","topic":"`+topic+`","action":"error","error":"`+errorName+`","count":3}`)
	acked := 0
	for i := 0; i < count; i++ {
		must(producer.ProduceSync(ctx, &kgo.Record{Partition: 0, Value: []byte("v" + strconv.Itoa(i))}).FirstErr())
		acked++
	}
	var listed struct {
		Rules []struct {
			API   string `json:"api"`
			Fired int    `json:"fired"`
		} `json:"rules"`
	}
	must(json.Unmarshal([]byte(call("GET", base+"/v1/faults", "")), &listed))
	call("DELETE", base+"/v1/faults", "")
	for _, rule := range listed.Rules {
		if rule.API == "Metadata" {
			fmt.Println("metadata", rule.Fired)
		}
	}
	fmt.Println("acked", acked)
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	bootstrap, base, topic := os.Args[1], os.Args[2], os.Args[3]
	count, err := strconv.Atoi(os.Args[4])
	must(err)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if len(os.Args) > 5 {
		metadataRequests(ctx, bootstrap, base, topic, count, os.Args[5])
		return
	}
	producer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.DefaultProduceTopic(topic), kgo.RetryBackoffFn(func(int) time.Duration { return 20 * time.Millisecond }))
	must(err)
	must(producer.Ping(ctx))
	call("POST", base+"/v1/faults", `{"api":"Produce","topic":"`+topic+`","action":"error","error":"NOT_LEADER_OR_FOLLOWER","count":3}`)
	call("POST", base+"/v1/faults", `{"api":"Produce","action":"drop","when":"after","count":1}`)
	for i := 0; i < count; i++ {
		must(producer.ProduceSync(ctx, &kgo.Record{Partition: 0, Value: []byte("v" + strconv.Itoa(i))}).FirstErr())
	}
	producer.Close()
	call("DELETE", base+"/v1/faults", "")
	consumer, err := kgo.NewClient(kgo.SeedBrokers(bootstrap), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}))
	must(err)
	defer consumer.Close()
	for read := 0; read < count; {
		fetches := consumer.PollFetches(ctx)
		must(ctx.Err())
		fetches.EachRecord(func(r *kgo.Record) {
			fmt.Println(string(r.Value))
			read++
		})
	}
}
