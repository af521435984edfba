// franz-go over a security run's settings (compat-tests/security/settings.ts: COMPAT_* variables): kgo's TLS dialer
// and SCRAM mechanism; and auth-failure, a login the broker must refuse, observing the error franz-go gives.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"regexp"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// newClient is kgo.NewClient with the security run's options first (none outside one).
func newClient(opts ...kgo.Opt) (*kgo.Client, error) {
	security, err := securityOpts()
	if err != nil {
		return nil, err
	}
	return kgo.NewClient(append(security, opts...)...)
}

func securityOpts() ([]kgo.Opt, error) {
	if os.Getenv("COMPAT_SECURITY_PROTOCOL") == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(os.Getenv("COMPAT_SSL_CA"))
	if err != nil {
		return nil, err
	}
	config := &tls.Config{RootCAs: x509.NewCertPool(), MinVersion: tls.VersionTLS12}
	if !config.RootCAs.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("no certificate in %s", os.Getenv("COMPAT_SSL_CA"))
	}
	if cert := os.Getenv("COMPAT_SSL_CERT"); cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, os.Getenv("COMPAT_SSL_KEY"))
		if err != nil {
			return nil, err
		}
		config.Certificates = []tls.Certificate{pair}
	}
	opts := []kgo.Opt{kgo.DialTLSConfig(config)}
	if os.Getenv("COMPAT_SASL_MECHANISM") == "SCRAM-SHA-512" {
		auth := scram.Auth{User: os.Getenv("COMPAT_SASL_USERNAME"), Pass: os.Getenv("COMPAT_SASL_PASSWORD")}
		opts = append(opts, kgo.SASL(auth.AsSha512Mechanism()))
	}
	return opts, nil
}

var address = regexp.MustCompile(`127\.0\.0\.1:\d+`)

// authFailure pings with settings the broker refuses: a Kafka error's name and message, or the TLS error's text.
func authFailure(ctx context.Context, bootstrap, prefix string) error {
	client, err := newClient(kgo.SeedBrokers(bootstrap), kgo.RequestRetries(0))
	if err != nil {
		return err
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	err = client.Ping(ctx)
	if err == nil {
		return errors.New("the broker accepted the login; Kafka refuses it")
	}
	var kafkaErr *kerr.Error
	if errors.As(err, &kafkaErr) {
		observe("error", kafkaErr.Message)
	}
	observe("message", address.ReplaceAllString(err.Error(), "<broker>"))
	return nil
}
