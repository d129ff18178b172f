package dev.headroom.serve;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * headroom's families written straight to bytes are what client_java's writers make of the same families,
 * byte for byte, in every format and escaping content negotiation can pick, merged by name with the
 * registry's other families as the registry's own sorted scrape would be.
 */
class TextExpositionTest {
  /** What Prometheus, a browser, an OpenMetrics scraper and the escaping variants send. */
  private static final String[] ACCEPTS = {
      null,
      "text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
      "text/plain; version=0.0.4; escaping=underscores",
      "text/plain; version=0.0.4; escaping=dots",
      "text/plain; version=0.0.4; escaping=values",
      "text/plain; version=0.0.4; escaping=allow-utf-8",
      "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5",
      "application/openmetrics-text; version=1.0.0; escaping=underscores",
      "application/openmetrics-text; version=1.0.0; escaping=allow-utf-8",
  };
  private static final ExpositionFormats FORMATS = ExpositionFormats.init();

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"kernel", "userspace", "notunnel", "offline-cpu"})
  void everyGoldenPeerIsServedAsClientJavasWritersRenderIt(String fixture) throws IOException {
    Published p = GoldenMetricsTest.published(fixture, dir);
    HeadroomCollector headroom = GoldenMetricsTest.collector(p);
    PrometheusRegistry others = others();
    PrometheusRegistry all = new PrometheusRegistry();
    all.register(headroom);
    all.register((MultiCollector) others::scrape);
    MetricsEndpoint served = new MetricsEndpoint(headroom, others, Object::new, Duration.ZERO);

    for (String accept : ACCEPTS) {
      String want = clientJava(accept, all.scrape());
      MetricsEndpoint.Body got = served.body(accept, null);
      assertEquals(FORMATS.findWriter(accept).getContentType(), got.contentType());
      assertEquals(want, new String(got.bytes(), UTF_8), fixture + ", Accept: " + accept);
      assertArrayEquals(want.getBytes(UTF_8), got.bytes(), fixture + ", Accept: " + accept);
    }
    // The premise: the TLS gauge sorts among headroom's families, the rest after them.
    String text = new String(served.body(null, null).bytes(), UTF_8);
    assertTrue(text.indexOf("headroom_source_up") < text.indexOf("# HELP headroom_tls_")
        && text.indexOf("# HELP headroom_tls_") < text.indexOf("headroom_tunnel_"), text);
    assertTrue(text.indexOf("headroom_underlay_") < text.indexOf("jvm_") && text.contains("process_"), text);
    assertEquals(Files.readString(Path.of("src/test/resources/golden", fixture + ".prom")),
        new String(new MetricsEndpoint(headroom, new PrometheusRegistry(), Object::new, Duration.ZERO)
            .body(null, null).bytes(), UTF_8));
  }

  @Test
  void escapingNumbersOrderAndHistogramsMatchClientJava() throws IOException {
    Family help = new Family("test_help", "Backslash \\, quote \", newline \n and ü € 𝄞.", Family.Type.GAUGE);
    Family values = Family.gauge("test_values", "Numbers.");
    Family counter = Family.counter("test_events", "A counter.");
    Family histogram = Family.histogram("test_rate", "A histogram.");
    Family prefix = Family.gauge("test_help_b", "Sorts after test_help.");
    Family prefix2 = Family.gauge("test_helpa", "Sorts after test_help_b.");
    Families f = new Families();
    for (int round = 0; round < 2; round++) { // the second round proves reset() forgets the first
      f.reset();
      f.gauge(values, 1.0, "v", "1.0");
      f.gauge(values, Double.NaN, "v", "NaN is left out");
      f.gauge(values, Double.POSITIVE_INFINITY, "v", "+Inf");
      f.gauge(values, Double.NEGATIVE_INFINITY, "v", "-Inf");
      f.gauge(values, -0.0, "v", "-0.0");
      f.gauge(values, 1e-5, "v", "1e-5");
      f.gauge(values, 0.1 + 0.2, "v", "0.30000000000000004");
      f.gauge(values, 9_999_999, "v", "9999999");
      f.gauge(values, 312_500_000, "v", "3.125E8");
      f.gauge(values, Double.MAX_VALUE, "v", "max");
      f.gauge(values, Double.MIN_VALUE, "v", "min");
      f.gauge(values, 2e23, "v", "2e23");
      f.gauge(help, 1, "z", "last", "a", "first", "m", "quote \" backslash \\ newline \n");
      f.gauge(help, 2, "a", "ü € 𝄞, and a lone surrogate \ud800");
      f.gauge(help, 3);
      f.gauge(help, 4, "a", "b", "c", "d");
      f.gauge(help, 5, "a", "a");
      for (int cpu : new int[] {10, 2, 1, 0}) {
        f.counter(counter, cpu * 1.5, "cpu", Integer.toString(cpu), "mode", "user");
        f.counter(counter, cpu * 0.5, "mode", "idle", "cpu", Integer.toString(cpu));
      }
      double[] bounds = {0.001, 0.5, 1, 1e6, Double.POSITIVE_INFINITY};
      f.histogram(histogram, bounds, new long[] {1, 0, 3, 0, 2}, 12.25, "direction", "upload");
      f.histogram(histogram, bounds, new long[] {0, 0, 0, 0, 0}, 0, "direction", "download");
      f.histogram(histogram, bounds, new long[] {5, 4, 3, 2, 1}, 1e9);
      f.stateSet(prefix, "state", new String[] {"b", "a"}, Set.of("a"));
      f.gauge(prefix2, 7);
      if (round == 0) {
        f.gauge(Family.gauge("test_only_first", "Gone in the second round."), 1);
      }
    }
    for (String accept : ACCEPTS) {
      EscapingScheme escaping = EscapingScheme.fromAcceptHeader(accept, EscapingScheme.DEFAULT);
      if (escaping != EscapingScheme.ALLOW_UTF8 && escaping != EscapingScheme.UNDERSCORE_ESCAPING) {
        continue; // these rewrite every name, so the endpoint leaves them to client_java (tested above)
      }
      ExpositionFormatWriter w = FORMATS.findWriter(accept);
      String want = clientJava(accept, f.build());
      byte[] got = new TextExposition().render(f, w == FORMATS.getOpenMetricsTextFormatWriter(), OtherFamilies.NONE);
      assertEquals(want, new String(got, UTF_8), "Accept: " + accept);
      assertArrayEquals(want.getBytes(UTF_8), got, "Accept: " + accept);
    }
  }

  @Test
  void otherFamiliesAreCollectedAgainOnlyWhenOlderThanTheirMaxAge() throws IOException {
    int[] calls = {0};
    PrometheusRegistry others = new PrometheusRegistry();
    others.register(() -> GaugeSnapshot.builder().name("process_collected").help("Times collected.")
        .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(++calls[0]).build()).build());
    HeadroomCollector headroom = GoldenMetricsTest.collector(null);
    MetricsEndpoint kept = new MetricsEndpoint(headroom, others, Object::new, Duration.ofHours(1));
    for (int i = 0; i < 3; i++) {
      assertTrue(new String(kept.body(null, null).bytes(), UTF_8).contains("process_collected 1.0"));
    }
    assertEquals(1, calls[0]);
    MetricsEndpoint fresh = new MetricsEndpoint(headroom, others, Object::new, Duration.ZERO);
    fresh.body(null, null);
    assertTrue(new String(fresh.body(null, null).bytes(), UTF_8).contains("process_collected 3.0"));
  }

  @Test
  void otherFamiliesAWriterAddsSectionsToAreCutPerFamilyAndStillMergeByName() throws IOException {
    PrometheusRegistry others = others();
    // The text format writes a gauge histogram's _gcount and _gsum as sections of their own after its
    // buckets, so the one-pass text has more comment blocks than families.
    others.register(() -> io.prometheus.metrics.model.snapshots.HistogramSnapshot.builder()
        .name("headroom_queue_seconds").help("A gauge histogram.").gaugeHistogram(true)
        .dataPoint(io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot.builder()
            .classicHistogramBuckets(io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets.of(
                new double[] {1, Double.POSITIVE_INFINITY}, new long[] {2, 1}))
            .sum(3.5).build())
        .build());
    Published p = GoldenMetricsTest.published("kernel", dir);
    HeadroomCollector headroom = GoldenMetricsTest.collector(p);
    PrometheusRegistry all = new PrometheusRegistry();
    all.register(headroom);
    all.register((MultiCollector) others::scrape);
    MetricsEndpoint served = new MetricsEndpoint(headroom, others, Object::new, Duration.ZERO);
    for (String accept : ACCEPTS) {
      assertEquals(clientJava(accept, all.scrape()), new String(served.body(accept, null).bytes(), UTF_8),
          "Accept: " + accept);
    }
    assertTrue(new String(served.body(null, null).bytes(), UTF_8).contains("# TYPE headroom_queue_seconds_gcount gauge"));
  }

  /** Stand-ins for the other collectors with fixed values: a TLS expiry, a labelled gauge, a counter, a histogram. */
  private static PrometheusRegistry others() {
    PrometheusRegistry r = new PrometheusRegistry();
    Gauge.builder().name("headroom_tls_certificate_expiry_timestamp_seconds")
        .help("When the first certificate of the served TLS chain expires (its notAfter), Unix seconds")
        .register(r).set(1.7e9);
    Gauge.builder().name("jvm_memory_used_bytes").help("Used bytes of a given JVM memory area.")
        .labelNames("area").register(r).labelValues("heap").set(1.25e7);
    Counter.builder().name("process_cpu_seconds_total").help("Total user and system CPU time.")
        .register(r).inc(3.5);
    Gauge.builder().name("process_no_help").register(r).set(2);
    Histogram.builder().name("jvm_gc_pause_seconds").help("GC pauses.").classicUpperBounds(0.01, 0.1)
        .register(r).observe(0.05);
    return r;
  }

  private static String clientJava(String accept, MetricSnapshots snapshots) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FORMATS.findWriter(accept).write(out, snapshots, EscapingScheme.fromAcceptHeader(accept, EscapingScheme.DEFAULT));
    return out.toString(UTF_8);
  }
}
