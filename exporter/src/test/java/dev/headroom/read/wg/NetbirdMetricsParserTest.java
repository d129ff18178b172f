package dev.headroom.read.wg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parser against NetBird's local metrics page.
 *
 * <p>Fixtures: {@code netbird-metrics-v0.78.txt} is written from netbirdio/netbird PR #6689 (head 6b7c22e, merge
 * ref d7552e1; docs say "available since v0.78.0") as client_golang's promhttp renders it in text format 0.0.4:
 * families sorted by name, the collector's gauges from {@code client/internal/localmetrics/localmetrics.go} and
 * the histograms from {@code client/internal/metrics/prometheus.go} (buckets as declared there, stage
 * {@code connection_type} values {@code ice_p2p}/{@code ice_turn}/{@code relay} from main's
 * {@code connection_type.go}, sync phase names from {@code engine.go}). Eight peers known, six connected: four
 * P2P (three with a latency, one not measured yet), two relayed. Peer names and durations invented.
 * {@code netbird-metrics-upstream.txt} is verbatim the expected text of NetBird's own {@code TestCollector}
 * ({@code localmetrics_test.go} at 6b7c22e).
 */
class NetbirdMetricsParserTest {

  @Test
  void routingPeerPageCountsP2pRelayedAndLatencies() {
    NetbirdMetrics m = NetbirdMetricsParser.parse(Fixtures.read("netbird-metrics-v0.78.txt"));
    assertEquals(8, m.peersTotal());
    assertEquals(6, m.peersConnected());
    assertEquals(4, m.p2p());
    assertEquals(2, m.relayed());
    assertEquals(0, NetbirdStatus.of(m).connectedUnknownType());
    // Sorted by peer, as promhttp writes them; the fourth P2P peer has no latency yet and no series.
    assertEquals(List.of(
        new NetbirdMetrics.PeerLatency("build-runner-02.netbird.cloud", 0.004211873),
        new NetbirdMetrics.PeerLatency("laptop-anna.netbird.cloud", 0.018734512),
        new NetbirdMetrics.PeerLatency("office-nas.netbird.cloud", 0.041093377)), m.latencies());
    assertEquals(List.of(0.004211873, 0.018734512, 0.041093377), m.latencySeconds());
    assertEquals(0.041093377, NetbirdStatus.of(m).latencyMaxSeconds().getAsDouble(), 1e-12);
    assertEquals((0.004211873 + 0.018734512 + 0.041093377) / 3, NetbirdStatus.of(m).latencyMeanSeconds().getAsDouble(), 1e-12);
  }

  @Test
  void netbirdsOwnCollectorTestOutput() {
    NetbirdMetrics m = NetbirdMetricsParser.parse(Fixtures.read("netbird-metrics-upstream.txt"));
    assertEquals(4, m.peersTotal());
    assertEquals(3, m.peersConnected());
    assertEquals(2, m.p2p());
    assertEquals(1, m.relayed());
    assertEquals(List.of(0.012, 0.036), m.latencySeconds());
  }

  @Test
  void daemonUpButDisconnectedHasZerosAndNoLatencyFamily() {
    // What the collector writes with no peers connected: both connection types present at 0, no latency series.
    NetbirdMetrics m = NetbirdMetricsParser.parse("""
        # HELP netbird_management_connected Whether the client is connected to the management service (1 connected, 0 disconnected).
        # TYPE netbird_management_connected gauge
        netbird_management_connected 0
        # HELP netbird_peers Number of peers known to this client.
        # TYPE netbird_peers gauge
        netbird_peers 3
        # HELP netbird_peers_connected Number of connected peers by connection type.
        # TYPE netbird_peers_connected gauge
        netbird_peers_connected{connection_type="p2p"} 0
        netbird_peers_connected{connection_type="relay"} 0
        # HELP netbird_signal_connected Whether the client is connected to the signal service (1 connected, 0 disconnected).
        # TYPE netbird_signal_connected gauge
        netbird_signal_connected 0
        """);
    assertEquals(3, m.peersTotal());
    assertEquals(0, m.peersConnected());
    assertEquals(List.of(), m.latencies());
    assertFalse(NetbirdStatus.of(m).latencyMeanSeconds().isPresent());
    assertFalse(NetbirdStatus.of(m).latencyMaxSeconds().isPresent());
  }

  @Test
  void emptyBodyIsNotNetbirds() {
    // NetBird's collector always writes netbird_peers and netbird_peers_connected; an empty page is something else.
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NetbirdMetricsParser.parse(""));
    assertTrue(e.getMessage().contains("is this NetBird's endpoint?"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> NetbirdMetricsParser.parse("\n\n# just a comment\n"));
  }

  @Test
  void unknownFamiliesAndLabelsAreIgnoredAndAnUnknownConnectionTypeCountsAsUnknown() {
    NetbirdMetrics m = NetbirdMetricsParser.parse("""
        # HELP go_goroutines Number of goroutines that currently exist.
        # TYPE go_goroutines gauge
        go_goroutines 57
        # TYPE rpc_duration_seconds summary
        rpc_duration_seconds{quantile="0.99"} -Inf
        rpc_duration_seconds_sum 1.7560473e+07
        rpc_duration_seconds_count 2693
        some:recording:rule_total{a="1",} 3 1767225600000
        # a comment that is neither HELP nor TYPE
        netbird_peers 5
        netbird_peers_connected{connection_type="p2p",instance="x"} 1
        netbird_peers_connected{connection_type="relay"} 1
        netbird_peers_connected{connection_type="ice_turn"} 2
        netbird_peer_latency_seconds{peer="a.netbird.cloud",extra="y"} 0.02
        """);
    assertEquals(5, m.peersTotal());
    assertEquals(4, m.peersConnected());
    assertEquals(1, m.p2p());
    assertEquals(1, m.relayed());
    assertEquals(2, NetbirdStatus.of(m).connectedUnknownType());
    assertEquals(List.of(new NetbirdMetrics.PeerLatency("a.netbird.cloud", 0.02)), m.latencies());
  }

  @Test
  void malformedValueNamesItsLineNumber() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NetbirdMetricsParser.parse("""
        # TYPE netbird_peers gauge
        netbird_peers 2
        netbird_peers_connected{connection_type="p2p"} two
        """));
    assertEquals("line 3: the value of netbird_peers_connected is 'two', not a number", e.getMessage());
  }

  @Test
  void brokenLinesAnywhereNameTheirLineAndWhatIsWrong() {
    assertProblem("netbird_peers 1\nfoo{a=\"b} 1\n", "line 2: the value of label a of foo has no closing quote");
    assertProblem("netbird_peers 1\nfoo{a=\"\\t\"} 1\n", "line 2: invalid escape '\\t'");
    assertProblem("netbird_peers 1\nfoo{a=b} 1\n", "line 2: expected a quoted value for label a of foo");
    assertProblem("netbird_peers 1\nfoo{a=\"b\" c=\"d\"} 1\n", "line 2: expected ',' or '}' after label a of foo");
    assertProblem("netbird_peers 1\nfoo{a=\"b\",a=\"c\"} 1\n", "line 2: label a given twice in foo");
    assertProblem("netbird_peers 1\nfoo{1a=\"b\"} 1\n", "line 2: expected a label name or '}'");
    assertProblem("netbird_peers 1\nfoo\n", "line 2: foo has no value");
    assertProblem("netbird_peers 1\n{a=\"b\"} 1\n", "line 2: expected a metric name, got '{a=\"b\"} 1'");
    assertProblem("netbird_peers 1\nfoo 1 12.5\n", "line 2: the timestamp of foo is '12.5'");
    assertProblem("netbird_peers 1\nfoo 1 12 x\n", "line 2: unexpected text after the timestamp of foo: 'x'");
    // Java's parseDouble would take these; an exposition never holds them.
    assertProblem("netbird_peers 1d\n", "line 1: the value of netbird_peers is '1d', not a number");
    assertProblem("netbird_peers 0x10\n", "line 1: the value of netbird_peers is '0x10', not a number");
    assertProblem("\n\nnetbird_peers\t\n", "line 3: netbird_peers has no value");
  }

  @Test
  void countsMustBeWholeNonNegativeNumbersEvenWhereTheFormatAllowsNanAndInf() {
    assertProblem("netbird_peers NaN\n", "line 1: netbird_peers is NaN, expected a whole number of peers >= 0");
    assertProblem("netbird_peers +Inf\n", "line 1: netbird_peers is Infinity");
    assertProblem("netbird_peers -1\n", "line 1: netbird_peers is -1.0");
    assertProblem("netbird_peers 1.5\n", "line 1: netbird_peers is 1.5");
    assertProblem("netbird_peers 2\nnetbird_peers_connected{connection_type=\"relay\"} NaN\n",
        "line 2: netbird_peers_connected is NaN");
  }

  @Test
  void nanAndInfiniteLatenciesAreNoMeasurementAndInfBucketsParse() {
    NetbirdMetrics m = NetbirdMetricsParser.parse("""
        netbird_peers 4
        netbird_peers_connected{connection_type="p2p"} 4
        netbird_peers_connected{connection_type="relay"} 0
        netbird_peer_latency_seconds{peer="a"} NaN
        netbird_peer_latency_seconds{peer="b"} +Inf
        netbird_peer_latency_seconds{peer="c"} 0
        netbird_peer_latency_seconds{peer="d"} 2.5e-02
        netbird_sync_duration_seconds_bucket{le="+Inf"} 7
        netbird_sync_duration_seconds_bucket{le="-Inf"} -Inf
        netbird_sync_duration_seconds_sum +inf
        netbird_sync_duration_seconds_count 7
        """);
    assertEquals(List.of(new NetbirdMetrics.PeerLatency("d", 0.025)), m.latencies());
  }

  @Test
  void labelValuesAreUnescapedAndBlanksAndTimestampsAndCrLfAreAccepted() {
    NetbirdMetrics m = NetbirdMetricsParser.parse("netbird_peers 1 1767225600000\r\n"
        + "netbird_peers_connected { connection_type = \"p2p\" , } 1\r\n"
        + "netbird_peer_latency_seconds{peer=\"we\\\"ird\\\\na\\nme\"}\t0.5\r\n"
        + "netbird_peer_latency_seconds 0.25\r\n");
    assertEquals(1, m.p2p());
    assertEquals(List.of(new NetbirdMetrics.PeerLatency("we\"ird\\na\nme", 0.5),
        new NetbirdMetrics.PeerLatency("", 0.25)), m.latencies());
  }

  @Test
  void theManagementApiExportersFamilyOfTheSameNameIsRefused() {
    // netbird-api-exporter (a different program) writes netbird_peers_connected{connected="true"|"false"}.
    assertProblem("netbird_peers 9\nnetbird_peers_connected{connected=\"true\"} 5\n",
        "line 2: netbird_peers_connected has no connection_type label");
  }

  @Test
  void aSecondSampleOfACountIsRefused() {
    assertProblem("netbird_peers 1\nnetbird_peers 2\n", "line 2: a second netbird_peers sample");
    assertProblem("netbird_peers_connected{connection_type=\"p2p\"} 1\n"
        + "netbird_peers_connected{connection_type=\"p2p\"} 1\n",
        "line 2: a second netbird_peers_connected sample for connection_type=\"p2p\"");
  }

  private static void assertProblem(String text, String messageStart) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NetbirdMetricsParser.parse(text));
    assertTrue(e.getMessage().startsWith(messageStart), "expected '" + messageStart + "...', got: " + e.getMessage());
  }
}
