// The Java client over a security run's settings (compat-tests/security/settings.ts): the properties file named by
// COMPAT_TOOL_CONFIG (the one the stock tools get as --command-config), and auth-failure, a login the broker must
// refuse, observing the exception the client gives.
import java.io.FileReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;

final class Security {
    private Security() {}

    /** The security run's client properties; none outside one. */
    static Map<String, Object> settings() {
        Properties props = new Properties();
        String file = System.getenv("COMPAT_TOOL_CONFIG");
        if (file != null) {
            try (FileReader reader = new FileReader(file)) {
                props.load(reader);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Map<String, Object> settings = new TreeMap<>();
        props.forEach((key, value) -> settings.put((String) key, value));
        return settings;
    }

    /** Lists topics with settings the broker refuses: the exception chain's classes, and a SASL failure's message. */
    static void authFailure(String bootstrap) throws Exception {
        Map<String, Object> props = settings();
        props.put("bootstrap.servers", bootstrap);
        props.put("default.api.timeout.ms", "15000");
        props.put("request.timeout.ms", "10000");
        try (Admin admin = Admin.create(props)) {
            admin.listTopics().names().get();
        } catch (ExecutionException failure) {
            List<String> chain = new ArrayList<>();
            for (Throwable at = failure.getCause(); at != null && chain.size() < 4; at = at.getCause()) chain.add(at.getClass().getName());
            Scenarios.observe("errors", chain);
            Throwable cause = failure.getCause();
            if (cause instanceof org.apache.kafka.common.errors.SaslAuthenticationException) Scenarios.observe("message", cause.getMessage());
            return;
        }
        throw new AssertionError("the broker accepted the login; Kafka refuses it");
    }
}
