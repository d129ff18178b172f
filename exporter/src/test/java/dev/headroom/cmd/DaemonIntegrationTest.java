package dev.headroom.cmd;

import dev.headroom.testing.Needs;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.config.ConfigParser;
import dev.headroom.testing.FixtureTree;
import dev.headroom.testing.Scrape;
import dev.headroom.testing.Tools;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real daemon on a free port over a fixture tree whose counters the test moves, scraped over HTTP.
 */
class DaemonIntegrationTest {
  private static final String DOWN_TOTAL = "headroom_tunnel_bytes_total{direction=\"download\"}";
  private static final String DOWN_RATE = "headroom_tunnel_throughput_bytes_per_second{direction=\"download\"}";

  @TempDir Path dir;
  private ServeCommand.Running running;
  private FixtureTree tree;
  private int port;

  private void start(String fixture) throws Exception {
    tree = FixtureTree.copy(fixture, dir);
    running = ServeCommand.start(ConfigParser.parse(new String[] {
        "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + tree.sys(), "--path.procfs=" + tree.proc(),
        "--sample.interval=100ms", "--sample.peak-window=2s", "--labels.network=net-a",
        "--path.rundir=" + dir.resolve("run"), "--netbird.interval=0s"}).config());
    port = running.server().port();
  }

  @AfterEach
  void stop() {
    if (running != null) {
      running.close();
    }
  }

  private void awaitReady() {
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.get(port, "/-/ready").statusCode() == 200);
  }

  @Test
  void refusalsOfTheServedWebLayerReachMetrics() throws Exception {
    start("userspace");
    awaitReady();
    String series = "headroom_http_requests_refused_total{reason=\"method_not_allowed\"}";
    assertEquals(0.0, Scrape.metrics(port).get(series));
    java.net.http.HttpClient c = java.net.http.HttpClient.newHttpClient();
    for (int i = 0; i < 2; i++) {
      assertEquals(405, c.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/metrics"))
          .DELETE().build(), HttpResponse.BodyHandlers.discarding()).statusCode());
    }
    // Rendered once per sample: the next sample's /metrics shows both.
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get(series) == 2.0);
  }

  @Tag(Needs.PROMTOOL)
  @Test
  void countersAdvancedByTheTestAreServedExactly() throws Exception {
    start("userspace");
    awaitReady();
    // 100 MB: believable in any interval at the fixture's 10 Gbit/s (1.25e9 B/s over the 0.1 s of grace).
    tree.traffic("wt0", 100_000_000, 80_000, 20_000_000, 300_000);
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get(DOWN_TOTAL) == 1e8);
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(2e7, m.get("headroom_tunnel_bytes_total{direction=\"upload\"}"));
    assertEquals(1.0, m.get("headroom_peer_info{network=\"net-a\",site=\"default\"}"));
    // The burst landed in one interval: the sliding peak holds it, never above twice the line rate.
    double peak = m.get("headroom_tunnel_peak_throughput_bytes_per_second{direction=\"download\",window=\"sliding\"}");
    assertTrue(peak > 0 && peak <= 2.5e9, "peak " + peak);
    assertEquals("", Tools.promtoolCheckMetrics(Scrape.get(port, "/metrics").body()));
  }

  @Test
  void tunnelRestartNeverShowsANegativeRateAndTotalsKeepGrowing() throws Exception {
    start("userspace");
    awaitReady();
    tree.traffic("wt0", 100_000_000, 80_000, 0, 0);
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get(DOWN_TOTAL) == 1e8);
    List<Double> rates = new ArrayList<>();
    tree.recreateInterface("wt0", 44);
    tree.traffic("wt0", 30_000_000, 24_000, 0, 0);
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      Map<String, Double> m = Scrape.metrics(port);
      rates.add(m.get(DOWN_RATE));
      return m.get(DOWN_TOTAL) == 1.3e8;
    });
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(1.0, m.get("headroom_tunnel_restarts_total"));
    assertEquals(44.0, m.get("headroom_tunnel_ifindex"));
    assertTrue(rates.stream().allMatch(r -> r >= 0), "negative rate among " + rates);
  }

  @Test
  void vanishedTunnelMakesTheDaemonUnreadyAndItRecovers() throws Exception {
    start("userspace");
    awaitReady();
    tree.traffic("wt0", 10_000_000, 8_000, 0, 0);
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get(DOWN_TOTAL) == 1e7);
    tree.removeInterface("wt0");
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get("headroom_tunnel_up") == 0.0);
    HttpResponse<String> ready = Scrape.get(port, "/-/ready");
    assertEquals(503, ready.statusCode());
    assertTrue(ready.body().contains("absent"), ready.body());
    assertEquals(1.0, Scrape.metrics(port).get("headroom_datapath{datapath=\"absent\"}"));

    // A new interface appears at once, counting from zero: build it aside, then move it into place.
    FixtureTree back = FixtureTree.copy("userspace", dir.resolve("again"));
    back.recreateInterface("wt0", 51);
    back.traffic("wt0", 7_000_000, 5_000, 0, 0);
    java.nio.file.Files.move(back.sys().resolve("class/net/wt0"), tree.sys().resolve("class/net/wt0"),
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    awaitReady();
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get(DOWN_TOTAL) == 1.7e7);
    assertEquals(1.0, Scrape.metrics(port).get("headroom_tunnel_up"));
  }

  @Test
  void coreGoingOfflineAndOnlineIsFollowed() throws Exception {
    start("kernel");
    awaitReady();
    tree.setOffline(2, "0-1,3");
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get("headroom_cpu_online{cpu=\"2\"}") == 0.0);
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(3.0, m.get("headroom_cpus_online"));
    assertTrue(m.containsKey("headroom_cpu_busy_ratio{cpu=\"3\"}"));
    tree.setOnline(2, "0-3", 500000, 0, 1000, 2000000, 0, 0, 0, 0, 0, 0);
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get("headroom_cpus_online") == 4.0);
    double busy = Scrape.metrics(port).get("headroom_cpu_busy_ratio{cpu=\"2\"}");
    assertTrue(busy >= 0 && busy <= 1, "busy " + busy);
  }

  @Test
  void pagesHealthStatusAndContentNegotiation() throws Exception {
    start("kernel");
    awaitReady();
    assertEquals("OK\n", Scrape.get(port, "/-/healthy").body());
    HttpResponse<String> landing = Scrape.get(port, "/");
    assertTrue(landing.body().contains("href=\"/metrics\""), landing.body());
    assertTrue(landing.body().contains("kernel datapath"), landing.body());
    HttpResponse<String> status = Scrape.get(port, "/api/v1/status");
    assertEquals("application/json", status.headers().firstValue("content-type").orElse("").split(";")[0]);
    assertTrue(status.body().contains("\"datapath\":\"kernel\""), status.body());
    HttpResponse<String> om = Scrape.get(port, "/metrics", "Accept", "application/openmetrics-text; version=1.0.0");
    assertTrue(om.headers().firstValue("content-type").orElse("").startsWith("application/openmetrics-text"));
    assertTrue(om.body().endsWith("# EOF\n"));
    HttpResponse<String> gz = Scrape.get(port, "/metrics", "Accept-Encoding", "gzip");
    assertEquals("gzip", gz.headers().firstValue("content-encoding").orElse(""));
    assertEquals(404, Scrape.get(port, "/nope").statusCode());
  }

  @Tag(Needs.PROMTOOL)
  @Test
  void censusCountsTunnelsFromTheUapiSocketWithoutPerTunnelSeries() throws Exception {
    Path run = dir.resolve("run");
    String capture = new String(getClass().getResourceAsStream("/census/uapi-wireguard-go-routing-peer.txt")
        .readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
    // Every reply moves the first tunnel's counters on, as a live tunnel would.
    java.util.concurrent.atomic.AtomicLong tx = new java.util.concurrent.atomic.AtomicLong(24820);
    try (var sock = dev.headroom.testing.FakeUapiSocket.start(run, "wt0",
        () -> capture.replace("tx_bytes=24820", "tx_bytes=" + tx.addAndGet(5_000_000)))) {
      tree = FixtureTree.copy("userspace", dir.resolve("tree"));
      running = ServeCommand.start(ConfigParser.parse(new String[] {
          "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + tree.sys(), "--path.procfs=" + tree.proc(),
          "--path.rundir=" + run, "--census.interval=200ms", "--sample.interval=100ms", "--netbird.interval=0s"}).config());
      port = running.server().port();
      await().atMost(Duration.ofSeconds(10)).until(() ->
          Scrape.metrics(port).getOrDefault("headroom_tunnels{state=\"total\"}", -1.0) == 3.0);
      await().atMost(Duration.ofSeconds(10)).until(() ->
          Scrape.metrics(port).getOrDefault("headroom_tunnel_hottest_bytes_per_second{direction=\"download\"}", 0.0) > 0);
      String text = Scrape.get(port, "/metrics").body();
      assertTrue(text.contains("headroom_tunnel_rate_bytes_per_second_bucket{direction=\"download\",le=\"+Inf\"}"), text);
      assertTrue(!text.contains("6d69dad9"), "a public key leaked into the metrics");
      assertEquals("", Tools.promtoolCheckMetrics(text));
      Map<String, Double> m = Scrape.parse(text);
      assertEquals(1.0, m.get("headroom_tunnel_hottest_share_ratio{direction=\"download\"}"), 0.01);
      String status = Scrape.get(port, "/api/v1/status").body();
      assertTrue(status.contains("\"top_talkers\""));
      assertTrue(status.contains("\"names_missing\""), "without NetBird's status the page says why names are missing");
    }
  }

  @Test
  void talkersCarryNetbirdsNamesAndTheRelayedTrafficIsAFigureOfItsOwn() throws Exception {
    Path run = dir.resolve("run");
    String capture = new String(getClass().getResourceAsStream("/census/uapi-wireguard-go-routing-peer.txt")
        .readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
    java.util.concurrent.atomic.AtomicLong tx = new java.util.concurrent.atomic.AtomicLong(24820);
    // NetBird's status, as its CLI prints it: the busy tunnel relayed, a second one P2P, the third not listed.
    String alice = java.util.Base64.getEncoder().encodeToString(java.util.HexFormat.of()
        .parseHex("6d69dad9e721395fd4d68f9f9398b80a83010fcbb0fed4dbbaa27b94da46ce35"));
    String bob = java.util.Base64.getEncoder().encodeToString(java.util.HexFormat.of()
        .parseHex("9ee68e10c78e5d99c9c1290d6fdf37fe496ff00efa130da75df3ceabf0c4e371"));
    Path json = dir.resolve("status.json");
    java.nio.file.Files.writeString(json, dev.headroom.testing.NetbirdJson.document("Connected", true, false,
        List.of(dev.headroom.testing.NetbirdJson.relayed(alice, 0, 0), dev.headroom.testing.NetbirdJson.peer(bob, 0, 0))));
    Path netbird = dir.resolve("netbird");
    java.nio.file.Files.writeString(netbird, "#!/bin/sh\ncat '" + json + "'\n");
    netbird.toFile().setExecutable(true);
    try (var sock = dev.headroom.testing.FakeUapiSocket.start(run, "wt0",
        () -> capture.replace("tx_bytes=24820", "tx_bytes=" + tx.addAndGet(5_000_000)))) {
      tree = FixtureTree.copy("userspace", dir.resolve("tree"));
      running = ServeCommand.start(ConfigParser.parse(new String[] {
          "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + tree.sys(), "--path.procfs=" + tree.proc(),
          "--path.rundir=" + run, "--census.interval=200ms", "--sample.interval=100ms", "--netbird.interval=1s",
          "--netbird.command=" + netbird}).config());
      port = running.server().port();
      String relayed = "headroom_tunnel_traffic_bytes_per_second{connection=\"relayed\",direction=\"download\"}";
      await().atMost(Duration.ofSeconds(15)).until(() -> Scrape.metrics(port).getOrDefault(relayed, 0.0) > 0);
      Map<String, Double> m = Scrape.metrics(port);
      assertEquals(0.0, m.get("headroom_tunnel_traffic_bytes_per_second{connection=\"p2p\",direction=\"download\"}"));
      assertEquals(1.0, m.get("headroom_tunnels_active{connection=\"relayed\"}"));
      String status = Scrape.get(port, "/api/v1/status").body();
      @SuppressWarnings("unchecked")
      Map<String, Object> talker = ((List<Map<String, Object>>) ((Map<String, Object>) dev.headroom.json.Json
          .tree(status).get("census")).get("top_talkers")).get(0);
      assertEquals("peer-1.awesome-domain.com", talker.get("name"), status);
      assertEquals("relayed", talker.get("connection"), status);
      assertTrue(!status.contains("\"names_missing\""), status);
      assertTrue(!Scrape.get(port, "/metrics").body().contains("awesome-domain"), "a device name became a label");
    }
  }

  @Test
  void aCensusThatNeverAnswersDoesNotDelaySamples() throws Exception {
    try (var sock = dev.headroom.testing.FakeUapiSocket.silent(dir.resolve("run"), "wt0")) {
      tree = FixtureTree.copy("userspace", dir.resolve("tree"));
      running = ServeCommand.start(ConfigParser.parse(new String[] {
          "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + tree.sys(), "--path.procfs=" + tree.proc(),
          "--path.rundir=" + dir.resolve("run"), "--census.interval=200ms", "--sample.interval=100ms",
          "--netbird.interval=0s"}).config());
      port = running.server().port();
      // Each census waits out the reader's 2 s timeout. Had the sampling thread waited with it, the first
      // census error would come after about two samples; on a thread of its own, some twenty samples pass.
      await().atMost(Duration.ofSeconds(20)).until(() ->
          Scrape.metrics(port).getOrDefault("headroom_source_errors_total{source=\"census\"}", 0.0) >= 1);
      Map<String, Double> m = Scrape.metrics(port);
      assertTrue(m.get("headroom_samples_total") >= 10, "samples while the census hung: " + m.get("headroom_samples_total"));
      assertEquals(0.0, m.get("headroom_source_up{source=\"census\"}"));
      assertEquals(1.0, m.get("headroom_source_up{source=\"tunnel\"}"));
    }
  }

  @Test
  void aMissingUapiSocketIsASourceErrorNotAFailedScrape() throws Exception {
    tree = FixtureTree.copy("userspace", dir.resolve("tree"));
    running = ServeCommand.start(ConfigParser.parse(new String[] {
        "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + tree.sys(), "--path.procfs=" + tree.proc(),
        "--path.rundir=" + dir.resolve("empty"), "--census.interval=200ms", "--sample.interval=100ms",
        "--netbird.interval=0s"}).config());
    port = running.server().port();
    await().atMost(Duration.ofSeconds(10)).until(() ->
        Scrape.metrics(port).getOrDefault("headroom_source_errors_total{source=\"census\"}", 0.0) >= 1);
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(0.0, m.get("headroom_source_up{source=\"census\"}"));
    assertEquals(1.0, m.get("headroom_source_up{source=\"tunnel\"}"));
    assertTrue(!m.containsKey("headroom_tunnels{state=\"total\"}"));
  }

  @Test
  void aBadCgroupCpuMaxIsACountedSourceErrorReadAsNoQuotaAndTheDaemonStaysReady() throws Exception {
    startWithCpuMax("lots 100000\n");
    awaitReady();
    await().atMost(Duration.ofSeconds(10)).until(() ->
        Scrape.metrics(port).getOrDefault("headroom_source_errors_total{source=\"cpu_quota\"}", 0.0) >= 1);
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(0.0, m.get("headroom_source_up{source=\"cpu_quota\"}"));
    assertEquals(1.0, m.get("headroom_source_up{source=\"cpu\"}"));
    assertEquals(200, Scrape.get(port, "/-/ready").statusCode(), "the quota refines the verdict; it is not essential");
    String status = Scrape.get(port, "/api/v1/status").body();
    assertTrue(status.contains("\"cpu_quota\""), status);
    assertTrue(status.contains("\"quota_cores\":null"), "read as no quota: " + status);
  }

  @Test
  void aReadableCgroupCpuMaxIsAnUpSource() throws Exception {
    startWithCpuMax("150000 100000\n");
    await().atMost(Duration.ofSeconds(10)).until(() ->
        Scrape.metrics(port).containsKey("headroom_source_up{source=\"cpu_quota\"}"));
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(1.0, m.get("headroom_source_up{source=\"cpu_quota\"}"));
    assertEquals(0.0, m.get("headroom_source_errors_total{source=\"cpu_quota\"}"));
  }

  /** Serves the userspace fixture with a cgroup root whose {@code cpu.max} holds {@code content}. */
  private void startWithCpuMax(String content) throws Exception {
    tree = FixtureTree.copy("userspace", dir.resolve("tree"));
    java.nio.file.Files.createDirectories(dir.resolve("cgroup"));
    java.nio.file.Files.writeString(dir.resolve("cgroup/cpu.max"), content);
    running = ServeCommand.start(ConfigParser.parse(new String[] {
        "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + tree.sys(), "--path.procfs=" + tree.proc(),
        "--path.rundir=" + dir.resolve("run"), "--sample.interval=100ms", "--netbird.interval=0s",
        "--path.cgroupfs=" + dir.resolve("cgroup")}).config());
    port = running.server().port();
  }
}
