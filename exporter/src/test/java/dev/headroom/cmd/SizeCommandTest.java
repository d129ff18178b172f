package dev.headroom.cmd;

import dev.headroom.read.PrometheusQuery;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.headroom.config.TestConfig;
import dev.headroom.judge.CeilingSelector;
import dev.headroom.judge.Classifier;
import dev.headroom.judge.ConfigCeilings;
import dev.headroom.judge.CostModel;
import dev.headroom.judge.Judgement;
import dev.headroom.judge.Learned;
import dev.headroom.judge.Observation;
import dev.headroom.judge.Observations;
import dev.headroom.judge.PeerShape;
import dev.headroom.judge.ReferenceProfile;
import dev.headroom.judge.StateFile;
import dev.headroom.judge.Thresholds;
import dev.headroom.judge.Units;
import dev.headroom.read.Datapath;
import dev.headroom.read.ProcStatCpuSource;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import dev.headroom.sample.Sampler;
import dev.headroom.serve.HeadroomMetrics;
import dev.headroom.serve.Published;
import dev.headroom.serve.Readiness;
import dev.headroom.serve.SamplerTiming;
import dev.headroom.serve.StatusJson;
import dev.headroom.testing.FakeClock;
import dev.headroom.testing.FixtureTree;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SizeCommandTest {
  private record Result(int code, String out, String err) {}

  private static Result size(String line) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String[] args = ("size " + line).trim().split("\\s+");
    int code;
    try {
      code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new AssertionError(e); // the calculator throws nothing checked
    }
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theWorkedExampleSizesFourPeersInTwoNetworks() {
    Result r = size("--active-users 3000 --per-user 10mbit --direction download --vcpus 16");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("1. Peak demand: 3,000 active users x 10 Mbps = 30 Gbps download"), r.out());
    assertTrue(r.out().contains("2. One peer carries 20 Gbps download (reference: kernel WireGuard, 16 cores"), r.out());
    assertTrue(r.out().contains("3. Active peers: ceil(30 / 20) = 2"), r.out());
    assertTrue(r.out().contains("4. 2 Networks x 2 peers = 4 peers, ~15 Gbps per Network"), r.out());
    assertFalse(r.out().contains("Note:"), "nothing unusual about the worked example: " + r.out());
    assertEquals("", r.err());
  }

  @Test
  void equalsFormWorksAndDownloadIsTheDefaultDirection() {
    Result r = size("--active-users=3000 --per-user=10mbit --vcpus=16");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("ceil(30 / 20) = 2"), r.out());
  }

  @Test
  void zeroUsersStillGetOneNetworkOfTwoForAvailability() {
    Result r = size("--active-users 0 --per-user 10mbit --vcpus 16");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("ceil(0 / 20) = 0"), r.out());
    assertTrue(r.out().contains("1 Network x 2 peers = 2 peers, for availability only"), r.out());
  }

  @Test
  void uploadUsesTheUploadColumnAndSaysItFlattens() {
    Result r = size("--active-users 3000 --per-user 10mbit --direction upload --vcpus 32");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("One peer carries 15 Gbps upload"), r.out());
    assertTrue(r.out().contains("ceil(30 / 15) = 2"), r.out());
    assertTrue(r.out().contains("flattens at ~15 Gbps from 16 vCPUs"), r.out());
    assertTrue(r.out().contains("~15 Gbps per Network (100% of one peer's 15 Gbps)"), r.out());
    assertTrue(r.out().contains("3 Networks keep 20% headroom"), r.out());
  }

  @Test
  void demandBeyondAnyOnePeerScalesOutAndSaysSo() {
    Result r = size("--active-users 100000 --per-user 5mbit --vcpus 64");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("500 Gbps"), r.out());
    assertTrue(r.out().contains("ceil(500 / 31) = 17"), r.out());
    assertTrue(r.out().contains("17 Networks x 2 peers = 34 peers"), r.out());
    assertTrue(r.out().contains("no single peer carries 500 Gbps"), r.out());
    assertTrue(r.out().contains("past 16 vCPUs download gains little"), r.out());
  }

  @Test
  void aSingleUserFasterThanAPeerIsFlaggedAsOneTunnel() {
    Result r = size("--active-users 1 --per-user 25000mbit --capacity 20gbit");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("one user's 25 Gbps exceeds what one tunnel carries"), r.out());
  }

  @Test
  void capacityGivenDirectlyAndInterpolatedVcpus() {
    Result given = size("--active-users 400 --per-user 5mbit --capacity 2.5gbit --peers-per-network 3");
    assertTrue(given.out().contains("ceil(2 / 2.5) = 1") && given.out().contains("1 Network x 3 peers = 3 peers"),
        given.out());
    Result twelve = size("--active-users 3000 --per-user 10mbit --vcpus 12");
    assertTrue(twelve.out().contains("One peer carries 16.5 Gbps") && twelve.out().contains("= 2"), twelve.out());
  }

  @Test
  void userspaceDatapathReadsItsOwnTable() {
    Result r = size("--active-users 3000 --per-user 10mbit --vcpus 16 --datapath userspace");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("ceil(30 / 6.8) = 5"), r.out());
    assertTrue(r.out().contains("userspace WireGuard plateaus"), r.out());
  }

  @Test
  void aProfileFileGivesTheMeasuredCapacity(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("ceiling.properties");
    Files.writeString(f, "download.bytes_per_second=1500000000\ndownload.limit=cpu\nmeasured.cores=8\n"
        + "measured.datapath=kernel\nmeasured.mtu=1280\n");
    Result r = size("--active-users 3000 --per-user 10mbit --profile.file " + f);
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("One peer carries 12 Gbps download (measured: kernel datapath, 8 cores"), r.out());
    assertTrue(r.out().contains("ceil(30 / 12) = 3"), r.out());

    Result up = size("--active-users 3000 --per-user 10mbit --direction upload --profile.file " + f);
    assertEquals(1, up.code());
    assertTrue(up.err().contains("no upload measurement"), up.err());

    Result missing = size("--active-users 3000 --per-user 10mbit --profile.file " + dir.resolve("nope"));
    assertEquals(1, missing.code());
    assertTrue(missing.err().contains("cannot use the profile file"), missing.err());
  }

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(delimiter = '|', value = {
      "--per-user 10mbit --vcpus 16|--active-users is required",
      "--active-users 3000 --vcpus 16|--per-user is required",
      "--active-users 3000 --per-user 10mbit|give exactly one of --vcpus, --capacity, --profile.file",
      "--active-users 3000 --per-user 10mbit --vcpus 16 --capacity 20gbit|give exactly one of",
      "--active-users -5 --per-user 10mbit --vcpus 16|--active-users must be 0 or more",
      "--active-users many --per-user 10mbit --vcpus 16|--active-users must be a whole number, got 'many'",
      "--active-users 3000 --per-user 0mbit --vcpus 16|--per-user must be a bit rate above zero",
      "--active-users 3000 --per-user 10mbit --vcpus 0|--vcpus must be at least 1",
      "--active-users 3000 --per-user 10mbit --vcpus 16 --direction sideways|--direction must be download or upload",
      "--active-users 3000 --per-user 10mbit --vcpus 16 --datapath netstack|--datapath must be kernel or userspace",
      "--active-users 3000 --per-user 10mbit --capacity 5gbit --datapath userspace|--datapath only applies with --vcpus",
      "--active-users 3000 --per-user 10mbit --vcpus 16 --peers-per-network 0|--peers-per-network must be at least 1",
      "--active-users 3000 --per-user 10mbit --vcpus 16 --users 5|unknown flag '--users'",
      "--active-users 3000 --per-user --vcpus 16|--per-user needs a value",
      "--active-users 1 --active-users 2 --per-user 1mbit --vcpus 1|--active-users given twice",
      "--active-users 3000 --per-user 10mbit --vcpus 16 --network net-a|--network only applies with --from-prometheus",
      "--active-users 3000 --per-user 10mbit --vcpus 16 --window 2h|--window only applies with --from-prometheus",
      "--from-prometheus prom:9090 --vcpus 16|--from-prometheus needs an http:// or https:// URL",
      "--from-prometheus http://127.0.0.1:1 --window 2days --vcpus 16|--window must be a Prometheus duration",
      "--from-prometheus http://127.0.0.1:1 --window 30s --vcpus 16|--window must be at least 1m",
      "--from-prometheus http://127.0.0.1:1 --window 2h|give exactly one of --vcpus",
      "--from-prometheus http://127.0.0.1:1 --active-users x --vcpus 16|--active-users must be a whole number"})
  void badFlagsExitTwoWithAClearError(String line, String message) {
    Result r = size(line);
    assertEquals(2, r.code(), r.out());
    assertTrue(r.err().contains(message), r.err());
    assertTrue(r.err().contains("usage: headroom size"), r.err());
    assertEquals("", r.out());
  }

  @Test
  void thePeakQuerySumsPeersPerMinuteThenTakesTheHighestAndFiltersByThePeersOwnNetworkLabel() {
    assertEquals("max_over_time(sum(headroom_tunnels{state=\"active\"} and on (job, instance)"
        + " headroom_peer_info{network=\"net-a\"})[2h:1m])", SizeQueries.peakUsersQuery("net-a", "2h"));
    assertEquals("max_over_time(sum(headroom_tunnels{state=\"active\"})[7d:1m])",
        SizeQueries.peakUsersQuery(null, "7d"));
  }

  @Test
  void theRateQueryDividesTheSummedHistogramSumByTheSummedCount() {
    assertEquals("sum(rate(headroom_tunnel_rate_bytes_per_second_sum{direction=\"upload\"}[7d]))"
        + " / sum(rate(headroom_tunnel_rate_bytes_per_second_count{direction=\"upload\"}[7d]))",
        SizeQueries.perUserRateQuery(dev.headroom.sample.Direction.UPLOAD, null, "7d"));
    assertEquals("sum(rate(headroom_tunnel_rate_bytes_per_second_sum{direction=\"download\"}[2h])"
        + " and on (job, instance) last_over_time(headroom_peer_info{network=\"net-a\"}[2h]))"
        + " / sum(rate(headroom_tunnel_rate_bytes_per_second_count{direction=\"download\"}[2h])"
        + " and on (job, instance) last_over_time(headroom_peer_info{network=\"net-a\"}[2h]))",
        SizeQueries.perUserRateQuery(dev.headroom.sample.Direction.DOWNLOAD, "net-a", "2h"));
  }

  @Test
  void aNetworkNameIsQuotedSoItCannotBreakTheQuery() {
    assertEquals("\"eu \\\"west\\\\1\"", SizeQueries.promString("eu \"west\\1"));
  }

  @ParameterizedTest
  @CsvSource({"2h", "7d", "1w", "1h30m", "90m", "1y"})
  void prometheusDurationsAreAcceptedAsWindows(String w) throws Exception {
    assertEquals(w, SizeCommand.window(w));
  }

  @Test
  void helpPrintsUsageAndSucceeds() {
    Result r = size("--help");
    assertEquals(0, r.code());
    assertTrue(r.out().startsWith("usage: headroom size"));
  }

  /**
   * A kernel peer of 4 cores whose CPU spends twice the reference's time on each packet (0.5x the reference) after
   * 90 s of download load between 1 and 3 Gbps, as the daemon's cost model learns it.
   */
  private static CostModel halfSpeedCost() {
    CostModel m = new CostModel(Duration.ofMinutes(1), null);
    double perPacket = ReferenceProfile.BASE_MTU / (0.5 * ReferenceProfile.perCoreBytes(Datapath.KERNEL, Direction.DOWNLOAD));
    for (int s = 0; s < 90; s++) {
      double down = Units.bytesPerSecond(2 + Math.sin(s / 7.0));
      double packets = down / ReferenceProfile.BASE_MTU;
      double busy = packets * perPacket / 4;
      Observation o = Observation.builder(Datapath.KERNEL, 4).throughput(down, 0).packets(packets, 0)
          .coreBusy(busy, busy, busy, busy).build();
      m.feed(o, Thresholds.defaults().trafficFloorBytesPerSecond(), s * 1_000_000_000L);
    }
    return m;
  }

  @Test
  void fromStateSizesAPeerOfThisCpuFromItsLearnedCostAndSaysSo(@TempDir Path state) throws IOException {
    StateFile.write(state.resolve(StateFile.NAME), new StateFile.Contents(
        new PeerShape(Datapath.KERNEL, 4, 1280, "Test CPU"), Map.of(), halfSpeedCost().sums()));
    Result r = size("--active-users 3000 --per-user 10mbit --vcpus 16 --from-state " + state);
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("Using the cost this peer learned (state file " + state.resolve(StateFile.NAME)
        + ", kernel datapath): this CPU: 0.5x the reference (download), 0.5x (upload), from 1m30s of load"), r.out());
    // Half the reference's 20 Gbps at 16 vCPUs: 30 Gbps needs three peers, not two.
    assertTrue(r.out().contains("2. One peer carries 10 Gbps download (this CPU: its cost per packet spread over 16"
        + " vCPUs as the reference's was, kernel datapath, MTU 1280)"), r.out());
    assertTrue(r.out().contains("3. Active peers: ceil(30 / 10) = 3"), r.out());
  }

  @Test
  void fromStateRefusesACostTheDaemonWouldNotUseYet(@TempDir Path state) throws IOException {
    CostModel m = new CostModel(Duration.ofMinutes(1), null);
    Observation o = Observation.builder(Datapath.KERNEL, 4).throughput(2.5e8, 0).packets(2e5, 0)
        .coreBusy(0.5, 0.5, 0.5, 0.5).build();
    m.feed(o, Thresholds.defaults().trafficFloorBytesPerSecond(), 0);
    StateFile.write(state.resolve(StateFile.NAME), new StateFile.Contents(
        new PeerShape(Datapath.KERNEL, 4, 1280, "Test CPU"), Map.of(), m.sums()));
    Result r = size("--active-users 3000 --per-user 10mbit --vcpus 16 --from-state " + state);
    assertEquals(1, r.code(), r.out());
    assertTrue(r.err().contains("is not learned yet: it rests on 1s of load, the daemon uses it after 1m00s"), r.err());
    Result none = size("--active-users 3000 --per-user 10mbit --vcpus 16 --from-state " + state.resolve("nope"));
    assertEquals(1, none.code());
    assertTrue(none.err().contains("no state file"), none.err());
  }

  @Test
  void fromStatusReadsARunningDaemonsCostAsTheStateFileDoes(@TempDir Path dir) throws Exception {
    // The daemon's own status document, rendered for a fixture peer whose judgement rests on the half-speed cost.
    FixtureTree t = FixtureTree.copy("kernel", dir.resolve("kernel"));
    FakeClock clock = new FakeClock();
    Sampler sampler = new Sampler(TestConfig.fixture(t.sys(), t.proc()), new ProcStatCpuSource(t.sys(), t.proc()),
        clock, () -> 1_764_460_800_000L, Runnable::run, null);
    sampler.sample();
    t.traffic("wt0", 312_500_000, 250_000, 62_500_000, 100_000);
    clock.advanceSeconds(1);
    Sample s = sampler.sample();
    Observation o = Observations.from(s, Double.NaN, false);
    Judgement j = new Classifier(Thresholds.defaults()).observe(o,
        CeilingSelector.selectBoth(o, null, ConfigCeilings.NONE, Map.of(), halfSpeedCost().estimate(o)));
    String status = StatusJson.render(new Published(s, j, null, SamplerTiming.NONE, Learned.NONE),
        new HeadroomMetrics.ExporterInfo("test", "", "", "wt0", 0.9), new Readiness.State(true, ""));
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/api/v1/status", x -> {
      byte[] body = status.getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders(200, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    server.start();
    try {
      String url = "http://127.0.0.1:" + server.getAddress().getPort();
      Result r = size("--active-users 3000 --per-user 10mbit --vcpus 16 --from-status " + url + "/");
      assertEquals(0, r.code(), r.err());
      assertTrue(r.out().startsWith("Using the cost this peer learned (status of " + url + ", kernel datapath): this"
          + " CPU: 0.5x the reference (download), 0.5x (upload)"), r.out());
      assertTrue(r.out().contains("2. One peer carries 10 Gbps download (this CPU"), r.out());
      Result userspace = size("--active-users 3000 --per-user 10mbit --vcpus 16 --datapath userspace --from-status "
          + url);
      // Userspace WireGuard of this CPU: half the reference's 6.8 Gbps on 16 cores (the few it keeps busy).
      assertTrue(userspace.out().contains("2. One peer carries 3.4 Gbps download (this CPU"), userspace.out());
    } finally {
      server.stop(0);
    }
    Result none = size("--active-users 3000 --per-user 10mbit --vcpus 16 --from-status http://127.0.0.1:1");
    assertEquals(1, none.code());
    assertTrue(none.err().contains("cannot read http://127.0.0.1:1/api/v1/status"), none.err());
  }

  @Test
  void aLearnedCostNeedsVcpusAndOneSource(@TempDir Path state) {
    Result r = size("--active-users 3000 --per-user 10mbit --capacity 5gbit --from-state " + state);
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--from-state sizes a peer of this CPU: it needs --vcpus"), r.err());
    Result both = size("--active-users 3000 --per-user 10mbit --vcpus 4 --from-state " + state
        + " --from-status http://localhost:9586");
    assertEquals(2, both.code());
    assertTrue(both.err().contains("give one of --from-state and --from-status"), both.err());
  }
}
