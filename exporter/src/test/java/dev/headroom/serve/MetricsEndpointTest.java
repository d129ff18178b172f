package dev.headroom.serve;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.cmd.ServeCommand;
import dev.headroom.config.ConfigParser;
import dev.headroom.testing.FixtureTree;
import dev.headroom.testing.Scrape;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** /metrics renders once per snapshot and format and negotiates as client_java's own handler does. */
class MetricsEndpointTest {
  private static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";
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

  /** A collector whose value is how often it was collected. */
  private static final class CountingCollector implements MultiCollector {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public MetricSnapshots collect() {
      int n = calls.incrementAndGet();
      return MetricSnapshots.of(GaugeSnapshot.builder().name("collected").help("Times collected.")
          .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(n).build()).build());
    }
  }

  @Test
  void scrapesOfOneSnapshotReuseOneRenderAndANewSnapshotRendersAgain() throws IOException {
    CountingCollector c = new CountingCollector();
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(c);
    AtomicReference<Object> state = new AtomicReference<>(new Object());
    MetricsEndpoint m = new MetricsEndpoint(registry, state::get);

    MetricsEndpoint.Body first = m.body(null, null);
    for (int i = 0; i < 5; i++) {
      assertSame(first.bytes(), m.body(null, null).bytes());
    }
    assertEquals(1, c.calls.get());
    assertTrue(new String(first.bytes(), UTF_8).contains("collected 1.0"), new String(first.bytes(), UTF_8));

    state.set(new Object());
    assertTrue(new String(m.body(null, null).bytes(), UTF_8).contains("collected 2.0"));
    assertEquals(2, c.calls.get());
  }

  @Test
  void scrapesArrivingTogetherForANewSnapshotRenderItOnce() throws Exception {
    // A render reads an immutable snapshot: rendering it again would cost a render and give the same bytes.
    CountingCollector c = new CountingCollector();
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(c);
    MetricsEndpoint m = new MetricsEndpoint(registry, constant(new Object()));
    int threads = 8;
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      java.util.List<java.util.concurrent.Future<byte[]>> bodies = new java.util.ArrayList<>();
      for (int i = 0; i < threads; i++) {
        bodies.add(pool.submit(() -> {
          start.await();
          return m.body(null, null).bytes();
        }));
      }
      for (var b : bodies) {
        assertTrue(new String(b.get(), UTF_8).contains("collected 1.0"));
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(1, c.calls.get());
  }

  @Test
  void gzipIsMadeOncePerSnapshotAndHoldsTheSameText() throws IOException {
    CountingCollector c = new CountingCollector();
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(c);
    MetricsEndpoint m = new MetricsEndpoint(registry, constant(new Object()));
    MetricsEndpoint.Body plain = m.body(null, null);
    MetricsEndpoint.Body zipped = m.body(null, "deflate, gzip;q=1.0");
    assertNull(plain.contentEncoding());
    assertEquals("gzip", zipped.contentEncoding());
    assertSame(zipped.bytes(), m.body(null, "gzip").bytes());
    assertArrayEquals(plain.bytes(), gunzip(zipped.bytes()));
    assertEquals(1, c.calls.get());
  }

  @Test
  void beforeTheFirstSnapshotEveryScrapeRenders() throws IOException {
    CountingCollector c = new CountingCollector();
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(c);
    MetricsEndpoint m = new MetricsEndpoint(registry, () -> null);
    m.body(null, null);
    m.body(null, null);
    assertEquals(2, c.calls.get());
  }

  @Test
  void eachFormatIsWhatClientJavasWriterProducesForTheSameSnapshot() throws IOException {
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(() -> GaugeSnapshot.builder().name("headroom_x").help("A gauge.")
        .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(2.5).build()).build());
    MetricsEndpoint m = new MetricsEndpoint(registry, constant(new Object()));

    MetricsEndpoint.Body text = m.body("text/plain;version=0.0.4;q=0.5,*/*;q=0.1", null);
    ByteArrayOutputStream want = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(want, registry.scrape(), EscapingScheme.DEFAULT);
    assertEquals("text/plain; version=0.0.4; charset=utf-8", text.contentType());
    assertEquals(want.toString(UTF_8), new String(text.bytes(), UTF_8));

    MetricsEndpoint.Body om = m.body("application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5", null);
    want.reset();
    OpenMetricsTextFormatWriter.create().write(want, registry.scrape(), EscapingScheme.DEFAULT);
    assertEquals(OPENMETRICS, om.contentType());
    assertEquals(want.toString(UTF_8), new String(om.bytes(), UTF_8));
    assertTrue(new String(om.bytes(), UTF_8).endsWith("# EOF\n"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"kernel", "userspace", "notunnel", "offline-cpu"})
  void everyGoldenPeerIsServedInEveryNegotiatedFormatAndEscapingAsClientJavaWritesIt(String fixture)
      throws IOException {
    Published p = GoldenMetricsTest.published(fixture, dir);
    PrometheusRegistry headroom = new PrometheusRegistry();
    headroom.register(GoldenMetricsTest.collector(p));
    assertEquals(Files.readString(Path.of("src/test/resources/golden", fixture + ".prom")),
        new String(new MetricsEndpoint(headroom, Object::new).body(null, null).bytes(), UTF_8));

    PrometheusRegistry all = new PrometheusRegistry();
    all.register(GoldenMetricsTest.collector(p));
    ServeCommand.registerOwnCost(all);
    // A fixed snapshot, so the jvm_* values of the served render are the ones compared with.
    MetricSnapshots snapshots = all.scrape();
    PrometheusRegistry fixed = new PrometheusRegistry();
    fixed.register(() -> snapshots);
    MetricsEndpoint served = new MetricsEndpoint(fixed, Object::new);
    for (String accept : ACCEPTS) {
      ByteArrayOutputStream want = new ByteArrayOutputStream();
      FORMATS.findWriter(accept).write(want, snapshots, EscapingScheme.fromAcceptHeader(accept, EscapingScheme.DEFAULT));
      MetricsEndpoint.Body got = served.body(accept, null);
      assertEquals(FORMATS.findWriter(accept).getContentType(), got.contentType());
      assertEquals(want.toString(UTF_8), new String(got.bytes(), UTF_8), fixture + ", Accept: " + accept);
    }
    String dots = new String(served.body("text/plain; version=0.0.4; escaping=dots", null).bytes(), UTF_8);
    assertTrue(dots.contains("headroom__tunnel__up"), "escaping by dots doubles every underscore");
  }

  @Test
  void theDaemonServesTextOpenMetricsGzipAndNameFiltersOverHttp() throws Exception {
    FixtureTree tree = FixtureTree.copy("kernel", dir);
    try (ServeCommand.Running r = ServeCommand.start(ConfigParser.parse(new String[] {
        "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + tree.sys(), "--path.procfs=" + tree.proc(),
        "--sample.interval=100ms", "--netbird.interval=0s", "--census.interval=0s"}).config())) {
      int port = r.server().port();
      await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.get(port, "/-/ready").statusCode() == 200);

      HttpResponse<String> text = Scrape.get(port, "/metrics");
      assertEquals(200, text.statusCode());
      assertEquals("text/plain; version=0.0.4; charset=utf-8", text.headers().firstValue("content-type").orElse(""));
      assertTrue(text.body().contains("# TYPE headroom_tunnel_bytes_total counter"), text.body());
      assertTrue(text.body().contains("jvm_memory_used_bytes{"), "client_java's families are served too");

      HttpResponse<String> om = Scrape.get(port, "/metrics", "Accept", "application/openmetrics-text; version=1.0.0");
      assertEquals(OPENMETRICS, om.headers().firstValue("content-type").orElse(""));
      assertTrue(om.body().endsWith("# EOF\n") && om.body().contains("# TYPE headroom_tunnel_bytes counter"), om.body());

      HttpResponse<byte[]> gz = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + port + "/metrics")).header("Accept-Encoding", "gzip").build(),
          HttpResponse.BodyHandlers.ofByteArray());
      assertEquals("gzip", gz.headers().firstValue("content-encoding").orElse(""));
      assertEquals(gz.body().length, gz.headers().firstValueAsLong("content-length").orElse(-1));
      String unzipped = new String(gunzip(gz.body()), UTF_8);
      assertTrue(Scrape.parse(unzipped).containsKey("headroom_samples_total"), unzipped);

      // Every sample the daemon took was timed against its plan, in the histogram it serves.
      java.util.Map<String, Double> m = Scrape.parse(text.body());
      assertEquals(m.get("headroom_samples_total"), m.get("headroom_sample_lateness_seconds_count"), text.body());
      assertEquals(m.get("headroom_sample_lateness_seconds_count"), m.get("headroom_sample_lateness_seconds_bucket{le=\"+Inf\"}"));
      assertTrue(m.containsKey("headroom_samples_skipped_total"), text.body());

      HttpResponse<String> only = Scrape.get(port, "/metrics?name[]=headroom_tunnel_up");
      assertEquals(200, only.statusCode());
      assertEquals(java.util.Set.of("headroom_tunnel_up"), Scrape.parse(only.body()).keySet(), only.body());
    }
  }

  private static java.util.function.Supplier<Object> constant(Object o) {
    return () -> o;
  }

  private static byte[] gunzip(byte[] z) throws IOException {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(z))) {
      return in.readAllBytes();
    }
  }
}
