package dev.headroom.cmd;

import dev.headroom.read.PrometheusQuery;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
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
}
