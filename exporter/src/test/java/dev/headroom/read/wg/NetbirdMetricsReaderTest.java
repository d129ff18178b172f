package dev.headroom.read.wg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reader against a stand-in NetBird endpoint on loopback. */
class NetbirdMetricsReaderTest {

  /** What client_golang's promhttp sends with text format 0.0.4 (common v0.67). */
  private static final String PROM_TEXT = "text/plain; version=0.0.4; charset=utf-8; escaping=underscores";

  private HttpServer server;
  private ExecutorService executor;
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicReference<String> accept = new AtomicReference<>();
  private final AtomicInteger status = new AtomicInteger(200);
  private final AtomicReference<String> body = new AtomicReference<>();

  @BeforeEach
  void start() throws IOException {
    body.set(Fixtures.read("netbird-metrics-v0.78.txt"));
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    // Handlers on their own threads, so a hung one does not hold up stop().
    executor = Executors.newCachedThreadPool();
    server.setExecutor(executor);
    server.createContext("/metrics", ex -> {
      accept.set(ex.getRequestHeaders().getFirst("Accept"));
      respond(ex, status.get(), body.get());
    });
    server.createContext("/hang", ex -> {
      try {
        release.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      respond(ex, 200, body.get());
    });
    server.start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    release.countDown();
    server.stop(0);
    executor.shutdownNow();
    executor.awaitTermination(5, TimeUnit.SECONDS);
  }

  private static void respond(HttpExchange ex, int code, String text) throws IOException {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", code == 200 ? PROM_TEXT : "text/plain; charset=utf-8");
    ex.sendResponseHeaders(code, b.length == 0 ? -1 : b.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(b);
    }
  }

  private NetbirdMetricsReader reader(String path) {
    return new NetbirdMetricsReader(
        URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path), Duration.ofSeconds(5));
  }

  @Test
  void readsTheFixtureAndAsksForTheTextFormat() {
    NetbirdMetricsReader r = reader("/metrics");
    NetbirdMetrics m = r.read().orElseThrow();
    assertEquals(4, m.p2p());
    assertEquals(2, m.relayed());
    assertEquals(3, m.latencies().size());
    assertFalse(r.lastProblem().isPresent());
    assertEquals(NetbirdMetricsReader.ACCEPT, accept.get());
  }

  @Test
  void refusedPortSaysLocalMetricsAreNotEnabled() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    NetbirdMetricsReader r = new NetbirdMetricsReader(URI.create("http://127.0.0.1:" + port + "/metrics"),
        Duration.ofSeconds(5));
    assertEquals(Optional.empty(), r.read());
    String p = r.lastProblem().orElseThrow();
    assertTrue(p.startsWith("NetBird's local metrics are not enabled (netbird up --enable-local-metrics)"), p);
    assertTrue(p.contains("127.0.0.1:" + port), p);
    assertEquals(Optional.empty(), r.read()); // and again, quietly
  }

  @Test
  void http500NamesTheStatusAndTheErrorInTheBody() {
    // What promhttp answers when the gather fails, e.g. two peers with the same FQDN label.
    status.set(500);
    body.set("An error has occurred while serving metrics:\n\ncollected metric \"netbird_peer_latency_seconds\" "
        + "{ label:{name:\"peer\" value:\"\"} gauge:{value:0.012}} was collected before with the same name and label "
        + "values\n");
    NetbirdMetricsReader r = reader("/metrics");
    assertEquals(Optional.empty(), r.read());
    String p = r.lastProblem().orElseThrow();
    assertTrue(p.contains("answered HTTP 500: An error has occurred while serving metrics: collected metric"), p);
  }

  @Test
  void wrongPathIsAnHttpStatus() {
    NetbirdMetricsReader r = reader("/nope");
    assertEquals(Optional.empty(), r.read());
    assertTrue(r.lastProblem().orElseThrow().contains("answered HTTP 404"), r.lastProblem().toString());
  }

  @Test
  void unreadablePageNamesTheLine() {
    body.set("netbird_peers 3\nnetbird_peers_connected{connection_type=\"p2p\"} many\n");
    NetbirdMetricsReader r = reader("/metrics");
    assertEquals(Optional.empty(), r.read());
    String p = r.lastProblem().orElseThrow();
    assertTrue(p.startsWith("cannot read NetBird's local metrics at http://127.0.0.1:"), p);
    assertTrue(p.endsWith(": line 2: the value of netbird_peers_connected is 'many', not a number"), p);
  }

  @Test
  void anotherExportersPageIsAProblem() {
    body.set("# TYPE node_load1 gauge\nnode_load1 0.21\n");
    NetbirdMetricsReader r = reader("/metrics");
    assertEquals(Optional.empty(), r.read());
    assertTrue(r.lastProblem().orElseThrow().contains("is this NetBird's endpoint?"), r.lastProblem().toString());
  }

  @Test
  void noAnswerWithinTheTimeoutIsEmpty() {
    NetbirdMetricsReader r = new NetbirdMetricsReader(
        URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hang"), Duration.ofMillis(300));
    assertEquals(Optional.empty(), r.read());
    assertTrue(r.lastProblem().orElseThrow().contains("did not answer within 300 ms"), r.lastProblem().toString());
  }

  @Test
  void recoversAfterAProblem() {
    status.set(503);
    body.set("");
    NetbirdMetricsReader r = reader("/metrics");
    assertEquals(Optional.empty(), r.read());
    assertTrue(r.lastProblem().orElseThrow().endsWith("answered HTTP 503"), r.lastProblem().toString());
    status.set(200);
    body.set(Fixtures.read("netbird-metrics-upstream.txt"));
    assertEquals(1, r.read().orElseThrow().relayed());
    assertFalse(r.lastProblem().isPresent());
  }

  @Test
  void listenAddressesBecomeUrls() {
    assertEquals(NetbirdMetricsReader.DEFAULT_URI, NetbirdMetricsReader.uriForListenAddress(""));
    assertEquals(URI.create("http://127.0.0.1:9191/metrics"), NetbirdMetricsReader.DEFAULT_URI);
    assertEquals(URI.create("http://127.0.0.1:9300/metrics"),
        NetbirdMetricsReader.uriForListenAddress("127.0.0.1:9300"));
    assertEquals(URI.create("http://127.0.0.1:9191/metrics"), NetbirdMetricsReader.uriForListenAddress("0.0.0.0:9191"));
    assertEquals(URI.create("http://127.0.0.1:9191/metrics"), NetbirdMetricsReader.uriForListenAddress(":9191"));
    assertEquals(URI.create("http://[::1]:9191/metrics"), NetbirdMetricsReader.uriForListenAddress("[::]:9191"));
    assertEquals(URI.create("http://[::1]:9191/metrics"), NetbirdMetricsReader.uriForListenAddress("[::1]:9191"));
    assertEquals(URI.create("http://localhost:9191/metrics"),
        NetbirdMetricsReader.uriForListenAddress("localhost:9191"));
    assertThrows(IllegalArgumentException.class, () -> NetbirdMetricsReader.uriForListenAddress("127.0.0.1"));
    assertThrows(IllegalArgumentException.class, () -> NetbirdMetricsReader.uriForListenAddress("127.0.0.1:http"));
    assertThrows(IllegalArgumentException.class, () -> NetbirdMetricsReader.uriForListenAddress("127.0.0.1:0"));
  }

  @Test
  void withoutNetbirdsCliTheDaemonReadsTheSameCountsFromTheMetricsEndpointAndNeverNetstack() throws Exception {
    NetbirdStatusReader cli = new NetbirdStatusReader("/nonexistent/netbird", Duration.ofSeconds(5));
    NetbirdMetricsReader metrics = reader("/metrics");
    NetbirdStatus s = dev.headroom.sample.NetstackCollector.source(cli, metrics).read();
    NetbirdMetrics m = NetbirdMetricsParser.parse(Fixtures.read("netbird-metrics-v0.78.txt"));
    assertEquals(m.p2p(), s.p2p());
    assertEquals(m.relayed(), s.relayed());
    assertEquals(m.peersConnected(), s.peersConnected());
    assertEquals(NetbirdStatus.of(m).latencyMaxSeconds(), s.latencyMaxSeconds());
    assertFalse(s.connectedWithoutKernelInterface(), "the endpoint says nothing of the datapath");
    assertTrue(s.transfers().isEmpty(), "no bytes or names from the endpoint");

    status.set(500);
    dev.headroom.read.ReadException both = assertThrows(dev.headroom.read.ReadException.class,
        () -> dev.headroom.sample.NetstackCollector.source(cli, metrics).read());
    assertTrue(both.getMessage().contains(cli.lastProblem().orElseThrow())
        && both.getMessage().contains(metrics.lastProblem().orElseThrow()), both.getMessage());
  }
}
