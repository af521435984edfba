// Sarama over a security run's settings (compat-tests/security/settings.ts: COMPAT_* variables): Net.TLS and
// Net.SASL with SCRAM-SHA-512, whose client side Sarama leaves to the program (xdg-go/scram adapts to it); and
// auth-failure, a login the broker must refuse, observing the error Sarama gives.
package main

import (
	"crypto/sha512"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"regexp"

	"github.com/IBM/sarama"
	"github.com/xdg-go/scram"
)

// scramClient is sarama.SCRAMClient over xdg-go/scram's conversation.
type scramClient struct {
	conversation *scram.ClientConversation
}

func (s *scramClient) Begin(user, password, authzID string) error {
	client, err := scram.HashGeneratorFcn(sha512.New).NewClient(user, password, authzID)
	if err != nil {
		return err
	}
	s.conversation = client.NewConversation()
	return nil
}

func (s *scramClient) Step(challenge string) (string, error) { return s.conversation.Step(challenge) }
func (s *scramClient) Done() bool                            { return s.conversation.Done() }

// secure adds the security run's TLS and SASL settings to c (nothing outside one).
func secure(c *sarama.Config) error {
	if os.Getenv("COMPAT_SECURITY_PROTOCOL") == "" {
		return nil
	}
	pem, err := os.ReadFile(os.Getenv("COMPAT_SSL_CA"))
	if err != nil {
		return err
	}
	config := &tls.Config{RootCAs: x509.NewCertPool(), MinVersion: tls.VersionTLS12}
	if !config.RootCAs.AppendCertsFromPEM(pem) {
		return fmt.Errorf("no certificate in %s", os.Getenv("COMPAT_SSL_CA"))
	}
	if cert := os.Getenv("COMPAT_SSL_CERT"); cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, os.Getenv("COMPAT_SSL_KEY"))
		if err != nil {
			return err
		}
		config.Certificates = []tls.Certificate{pair}
	}
	c.Net.TLS.Enable = true
	c.Net.TLS.Config = config
	if os.Getenv("COMPAT_SASL_MECHANISM") == "SCRAM-SHA-512" {
		c.Net.SASL.Enable = true
		c.Net.SASL.Mechanism = sarama.SASLTypeSCRAMSHA512
		c.Net.SASL.User = os.Getenv("COMPAT_SASL_USERNAME")
		c.Net.SASL.Password = os.Getenv("COMPAT_SASL_PASSWORD")
		c.Net.SASL.SCRAMClientGeneratorFunc = func() sarama.SCRAMClient { return &scramClient{} }
	}
	return nil
}

var address = regexp.MustCompile(`127\.0\.0\.1:\d+`)

// authFailure connects a client with settings the broker refuses: the Kafka error it wraps, if any, and its text
// (a SASL failure's carries the broker's message).
func authFailure() error {
	c := config()
	c.Metadata.Retry.Max = 0
	client, err := sarama.NewClient([]string{bootstrap}, c)
	if err == nil {
		client.Close()
		return errors.New("the broker accepted the login; Kafka refuses it")
	}
	var kafkaErr sarama.KError
	if errors.As(err, &kafkaErr) {
		observe("error", kafkaErr.Error())
	}
	observe("message", address.ReplaceAllString(err.Error(), "<broker>"))
	return nil
}
