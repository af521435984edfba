// franz-go (idempotent by default) through injected faults: adds rules over gregor's HTTP API (NOT_LEADER_OR_FOLLOWER
// to the next 3 Produce requests on the topic, a connection dropped after one Produce is handled), produces `count`
// records one at a time, removes the rules (DELETE /v1/faults), then reads the partition from the start and prints
// each value on its own line.
//
//	faults <bootstrap> <http base> <topic> <count>
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

func call(method, url, body string) {
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
