package dev.headroom.cmd;

import dev.headroom.read.PrometheusQuery;
import dev.headroom.testing.Needs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code size --from-prometheus} against a real Prometheus (Debian package {@code prometheus}) holding three hours
 * of synthetic census history, backfilled with {@code promtool tsdb create-blocks-from openmetrics}.
 *
 * <p>The history, per minute, ending 5 minutes before now (m = minutes before the last sample):
 * <ul>
 *   <li>net-a: peers a1 and a2, normally 1,000 and 600 active tunnels. At m=60 they peak together at 1,800 + 1,200
 *       = 3,000; at m=40 a1 alone peaks at 2,500 while a2 has 400 (2,900; a sum of per-peer peaks would wrongly
 *       say 3,700); at m=150, outside a 2h window, both have 5,000.
 *   <li>Every active tunnel moves 1,250,000 bytes/s (10 Mbps) download and 250,000 bytes/s (2 Mbps) upload; older
 *       than m=130 the download rate was 5,000,000 bytes/s, which a 2h window must not see.
 *   <li>net-b: peer b1, 800 active tunnels at 125,000,000 bytes/s, which the net-a filter must drop.
 *   <li>net-c: peer c1, tunnels configured but never active.
 *   <li>{@code state="total"} is always 2,000 above active: the state filter must hold.
 * </ul>
 */
@Tag(Needs.PROMETHEUS)
class SizeFromPrometheusTest {
  private static final String PACKAGE_HINT =
      " (Debian package 'prometheus': apt-get install --no-install-recommends prometheus)";
  private static final int MINUTES = 180;
  /** Census runs every 5 s: each active tunnel adds 12 observations per minute to the histogram. */
  private static final int OBSERVATIONS_PER_MINUTE = 12;

  private static Path dir;
  private static Process prometheus;
  private static String url;

  private record Peer(String name, String network, String site, double downloadBytesPerSecond,
      double uploadBytesPerSecond) {
    String instance() {
      return name + ".example:10170";
    }

    String labels() {
      return "instance=\"" + instance() + "\",job=\"headroom\"";
    }

    /** Active tunnels m minutes before the last sample. */
    long active(int m) {
      return switch (name) {
        case "a1" -> m == 150 ? 5000 : m == 60 ? 1800 : m == 40 ? 2500 : 1000;
        case "a2" -> m == 150 ? 5000 : m == 60 ? 1200 : m == 40 ? 400 : 600;
        case "b1" -> 800;
        default -> 0;
      };
    }

    double rate(String direction, int m) {
      if (direction.equals("upload")) {
        return uploadBytesPerSecond;
      }
      return network.equals("net-a") && m > 130 ? 5_000_000 : downloadBytesPerSecond;
    }
  }

  private static final List<Peer> PEERS = List.of(
      new Peer("a1", "net-a", "fra", 1_250_000, 250_000),
      new Peer("a2", "net-a", "ams", 1_250_000, 250_000),
      new Peer("b1", "net-b", "fra", 125_000_000, 10_000_000),
      new Peer("c1", "net-c", "ams", 1_250_000, 250_000));

  private record Result(int code, String out, String err) {}

  private static Result size(String line) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try {
      code = Main.run(("size " + line).trim().split("\\s+"), new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new AssertionError(e); // the calculator throws nothing checked
    }
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @BeforeAll
  static void startPrometheusWithCensusHistory() throws Exception {
    Path promtool = onPath("promtool");
    Path prometheusBin = onPath("prometheus");
    dir = Files.createTempDirectory("headroom-size-prom");
    Path history = dir.resolve("census.om");
    Files.writeString(history, openMetrics(Instant.now().getEpochSecond() / 60 * 60 - 300));
    Path tsdb = dir.resolve("tsdb");
    Process backfill = new ProcessBuilder(promtool.toString(), "tsdb", "create-blocks-from", "openmetrics",
        history.toString(), tsdb.toString()).redirectErrorStream(true).start();
    String backfillOutput = new String(backfill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!backfill.waitFor(120, TimeUnit.SECONDS) || backfill.exitValue() != 0) {
      fail("promtool could not backfill the census history:\n" + backfillOutput);
    }

    Path config = dir.resolve("prometheus.yml");
    Files.writeString(config, "global:\n  evaluation_interval: 1m\n");
    int port = freePort();
    url = "http://127.0.0.1:" + port;
    Path log = dir.resolve("prometheus.log");
    prometheus = new ProcessBuilder(prometheusBin.toString(), "--config.file=" + config,
        "--storage.tsdb.path=" + tsdb, "--storage.tsdb.retention.time=15d",
        "--web.listen-address=127.0.0.1:" + port)
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    awaitReady(log);
  }

  @AfterAll
  static void stopPrometheus() throws Exception {
    if (prometheus != null) {
      prometheus.destroy(); // SIGTERM to this pid only
      if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
        prometheus.destroyForcibly();
        prometheus.waitFor(10, TimeUnit.SECONDS);
      }
    }
    if (dir != null) {
      try (Stream<Path> walk = Files.walk(dir)) {
        walk.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      }
    }
  }

  @Test
  void sizesNetworkAFromItsObservedPeakAndPerUserRate() {
    Result r = size("--from-prometheus " + url + " --network net-a --window 2h --direction download --vcpus 16");
    assertEquals(0, r.code(), r.err() + r.out());
    assertTrue(r.out().contains("Observed in Prometheus " + url + ", network net-a, over the last 2h:"), r.out());
    assertTrue(r.out().contains("peak active users: 3,000 (highest 1-minute sum of headroom_tunnels{state=\"active\"})"),
        r.out());
    assertTrue(r.out().contains("per-user rate: 10 Mbps download (1,250,000 bytes/s"), r.out());
    assertTrue(r.out().contains("1. Peak demand: 3,000 active users x 10 Mbps = 30 Gbps download"), r.out());
    assertTrue(r.out().contains("3. Active peers: ceil(30 / 20) = 2"), r.out());
    assertTrue(r.out().contains("4. 2 Networks x 2 peers = 4 peers, ~15 Gbps per Network"), r.out());
    assertEquals("", r.err());
  }

  @Test
  void onePeersCapacityCanBeTheLowestCeilingThePeersObservedThemselves() {
    Result r = size("--from-prometheus " + url + " --window 2h --per-user 10mbit --direction download --capacity-source observed");
    assertEquals(0, r.code(), r.err() + r.out());
    assertTrue(r.out().contains("one peer's capacity: 2.5 Gbps download (lowest headroom_ceiling_bytes_per_second"
        + " whose headroom_ceiling_source is observed)"), "a1's, not b1's reference: " + r.out());
    assertTrue(r.out().contains("3,800 active users x 10 Mbps = 38 Gbps"), r.out());
    assertTrue(r.out().contains("ceil(38 / 2.5) = 16"), r.out());
  }

  @Test
  void noObservedCeilingInTheDirectionIsADataProblemWithAHint() {
    Result r = size("--from-prometheus " + url + " --network net-a --window 2h --direction upload"
        + " --capacity-source observed");
    assertEquals(1, r.code(), r.out());
    assertTrue(r.err().contains("no peer for network net-a in the last 2h reads its upload ceiling as observed"), r.err());
  }

  @Test
  void uploadReadsTheUploadHistogram() {
    Result r = size("--from-prometheus " + url + "/ --network net-a --window 2h --direction upload --vcpus 16");
    assertEquals(0, r.code(), r.err() + r.out());
    assertTrue(r.out().contains("per-user rate: 2 Mbps upload (250,000 bytes/s"), r.out());
    assertTrue(r.out().contains("1. Peak demand: 3,000 active users x 2 Mbps = 6 Gbps upload"), r.out());
  }

  @Test
  void withoutANetworkAllPeersAddUpAndAGivenRateWins() {
    Result r = size("--from-prometheus " + url + " --window 2h --per-user 10mbit --vcpus 16");
    assertEquals(0, r.code(), r.err() + r.out());
    assertTrue(r.out().contains("Observed in Prometheus " + url + ", all peers, over the last 2h:"), r.out());
    assertTrue(r.out().contains("peak active users: 3,800 "), r.out()); // 1,800 + 1,200 + 800 at m=60
    assertTrue(r.out().contains("per-user rate: 10 Mbps, as given (--per-user)"), r.out());
    assertTrue(r.out().contains("3,800 active users x 10 Mbps = 38 Gbps"), r.out());
  }

  @Test
  void givenActiveUsersWinOverTheObservedPeak() {
    Result r = size("--from-prometheus " + url + " --network net-a --window 2h --active-users 100 --vcpus 16");
    assertEquals(0, r.code(), r.err() + r.out());
    assertTrue(r.out().contains("active users: 100, as given (--active-users)"), r.out());
    assertFalse(r.out().contains("peak active users"), r.out());
    assertTrue(r.out().contains("1. Peak demand: 100 active users x 10 Mbps = 1 Gbps download"), r.out());
  }

  @Test
  void aNetworkWithoutCensusDataIsADataProblemWithAHint() {
    Result r = size("--from-prometheus " + url + " --network net-zzz --window 2h --vcpus 16");
    assertEquals(1, r.code(), r.out());
    assertTrue(r.err().contains("no census data for network net-zzz in the last 2h: is the census running?"
        + " see headroom_source_up{source=\"census\"}"), r.err());
    assertEquals("", r.out());
  }

  @Test
  void aNetworkWhoseTunnelsWereNeverActiveHasNoPerUserRate() {
    Result r = size("--from-prometheus " + url + " --network net-c --window 2h --vcpus 16");
    assertEquals(1, r.code(), r.out());
    assertTrue(r.err().contains("no tunnel was active for network net-c in the last 2h, so no per-user download"
        + " rate was observed"), r.err());

    Result given = size("--from-prometheus " + url + " --network net-c --window 2h --per-user 5mbit --vcpus 16");
    assertEquals(0, given.code(), given.err());
    assertTrue(given.out().contains("peak active users: 0 "), given.out());
    assertTrue(given.out().contains("1 Network x 2 peers = 2 peers, for availability only"), given.out());
  }

  @Test
  void anUnreachablePrometheusIsNamed() throws IOException {
    String nowhere = "http://127.0.0.1:" + freePort();
    Result r = size("--from-prometheus " + nowhere + " --network net-a --window 2h --vcpus 16");
    assertEquals(1, r.code(), r.out());
    assertTrue(r.err().contains("cannot reach Prometheus at " + nowhere), r.err());
    assertEquals("", r.out());
  }

  @Test
  void prometheusOwnErrorTextIsPassedOn() {
    PrometheusQuery q = new PrometheusQuery(PrometheusQuery.baseUri(url));
    PrometheusQuery.QueryException e = assertThrows(PrometheusQuery.QueryException.class, () -> q.single("sum("));
    assertTrue(e.getMessage().contains("refused the query (HTTP 400, bad_data)"), e.getMessage());
    assertTrue(e.getMessage().contains("parse error"), e.getMessage());
  }

  /** The census history as OpenMetrics with timestamps in seconds, one sample per minute, ending at {@code end}. */
  static String openMetrics(long end) {
    StringBuilder b = new StringBuilder();
    b.append("# TYPE headroom_peer_info gauge\n");
    for (int m = MINUTES; m >= 0; m--) {
      for (Peer p : PEERS) {
        b.append("headroom_peer_info{").append(p.labels()).append(",network=\"").append(p.network())
            .append("\",site=\"").append(p.site()).append("\"} 1 ").append(end - 60L * m).append('\n');
      }
    }
    b.append("# TYPE headroom_tunnels gauge\n");
    for (int m = MINUTES; m >= 0; m--) {
      for (Peer p : PEERS) {
        long t = end - 60L * m;
        b.append("headroom_tunnels{").append(p.labels()).append(",state=\"active\"} ").append(p.active(m))
            .append(' ').append(t).append('\n');
        b.append("headroom_tunnels{").append(p.labels()).append(",state=\"total\"} ").append(p.active(m) + 2000)
            .append(' ').append(t).append('\n');
      }
    }
    // a1 and a2 learned their download ceilings (2.5 and 3 Gbps), b1 reads its reference (13 Gbps); upload is
    // the reference everywhere.
    b.append("# TYPE headroom_ceiling_bytes_per_second gauge\n");
    for (int m = MINUTES; m >= 0; m--) {
      for (Peer p : PEERS) {
        double down = switch (p.name()) {
          case "a1" -> 312_500_000;
          case "a2" -> 375_000_000;
          default -> 1_625_000_000;
        };
        b.append("headroom_ceiling_bytes_per_second{").append(p.labels()).append(",direction=\"download\"} ")
            .append((long) down).append(' ').append(end - 60L * m).append('\n');
        b.append("headroom_ceiling_bytes_per_second{").append(p.labels()).append(",direction=\"upload\"} ")
            .append(1_000_000_000L).append(' ').append(end - 60L * m).append('\n');
      }
    }
    b.append("# TYPE headroom_ceiling_source gauge\n");
    for (int m = MINUTES; m >= 0; m--) {
      for (Peer p : PEERS) {
        boolean learned = p.name().startsWith("a");
        for (String source : List.of("observed", "reference")) {
          b.append("headroom_ceiling_source{").append(p.labels()).append(",direction=\"download\",source=\"")
              .append(source).append("\"} ").append(learned == source.equals("observed") ? 1 : 0).append(' ')
              .append(end - 60L * m).append('\n');
          b.append("headroom_ceiling_source{").append(p.labels()).append(",direction=\"upload\",source=\"")
              .append(source).append("\"} ").append(source.equals("reference") ? 1 : 0).append(' ')
              .append(end - 60L * m).append('\n');
        }
      }
    }
    b.append("# TYPE headroom_tunnel_rate_bytes_per_second histogram\n");
    for (Peer p : PEERS) {
      for (String direction : List.of("download", "upload")) {
        String labels = "{direction=\"" + direction + "\"," + p.labels();
        double count = 0;
        double sum = 0;
        for (int m = MINUTES; m >= 0; m--) {
          long t = end - 60L * m;
          long observations = p.active(m) * OBSERVATIONS_PER_MINUTE;
          count += observations;
          sum += observations * p.rate(direction, m);
          String c = String.format(Locale.ROOT, "%.1f", count);
          b.append("headroom_tunnel_rate_bytes_per_second_bucket").append(labels).append(",le=\"+Inf\"} ").append(c)
              .append(' ').append(t).append('\n');
          b.append("headroom_tunnel_rate_bytes_per_second_sum").append(labels).append("} ")
              .append(String.format(Locale.ROOT, "%.1f", sum)).append(' ').append(t).append('\n');
          b.append("headroom_tunnel_rate_bytes_per_second_count").append(labels).append("} ").append(c)
              .append(' ').append(t).append('\n');
        }
      }
    }
    return b.append("# EOF\n").toString();
  }

  private static Path onPath(String program) {
    for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
      Path p = Path.of(d, program);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    throw new IllegalStateException(program + " not found on PATH; this test needs a real Prometheus" + PACKAGE_HINT);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Polls /-/ready; a wait, not a timing assertion: Prometheus replays its blocks before it answers. */
  private static void awaitReady(Path log) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest ready = HttpRequest.newBuilder(URI.create(url + "/-/ready")).timeout(Duration.ofSeconds(5)).build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (!prometheus.isAlive()) {
        fail("prometheus exited with status " + prometheus.exitValue() + ":\n" + tail(log));
      }
      try {
        if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    fail("prometheus was not ready within 120 s:\n" + tail(log));
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(log));
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }
}
