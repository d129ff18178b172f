package dev.headroom.serve;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.headroom.serve.web.Refusals;
import dev.headroom.serve.web.Refusals.Reason;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The refusal counters reach /metrics as counted, every reason from the start, before the first sample too. */
class RefusalsExposedTest {
  private static final HeadroomMetrics.ExporterInfo INFO =
      new HeadroomMetrics.ExporterInfo("test", "dc-east", "eu-west", "wt0", 0.9);

  @Test
  void everyReasonIsServedWithItsCountBeforeTheFirstSample() throws Exception {
    Refusals refusals = new Refusals();
    for (int i = 0; i < 3; i++) {
      refusals.count(Reason.CLIENT_LIMIT);
    }
    refusals.count(Reason.AUTH_RATE_LIMITED);
    // A new snapshot object per scrape, so each render reads the counters again.
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(new HeadroomMetrics(() -> null, INFO, refusals));
    MetricsEndpoint endpoint = new MetricsEndpoint(registry, Object::new);
    for (String accept : new String[] {null, "application/openmetrics-text; version=1.0.0"}) {
      Map<String, Double> m = dev.headroom.testing.Scrape.parse(new String(endpoint.body(accept, null).bytes(), UTF_8));
      for (Reason r : Reason.values()) {
        double want = r == Reason.CLIENT_LIMIT ? 3 : r == Reason.AUTH_RATE_LIMITED ? 1 : 0;
        assertEquals(want, m.get("headroom_http_requests_refused_total{reason=\"" + r.label() + "\"}"), r + ", " + accept);
      }
    }
    refusals.count(Reason.CLIENT_LIMIT);
    Map<String, Double> m = dev.headroom.testing.Scrape.parse(new String(endpoint.body(null, null).bytes(), UTF_8));
    assertEquals(4.0, m.get("headroom_http_requests_refused_total{reason=\"client_limit\"}"));
  }
}
