package dev.headroom.read.wg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.json.Json.JsonException;
import dev.headroom.testing.NetbirdJson;
import java.util.List;
import org.junit.jupiter.api.Test;

class NetbirdStatusParserTest {

  @Test
  void currentClientCountsP2pRelayedAndLatencies() {
    NetbirdStatus s = NetbirdStatusParser.parse(Fixtures.read("netbird-status-v0.5x.json"));
    assertEquals(5, s.peersTotal());
    assertEquals(3, s.peersConnected());
    assertEquals(2, s.p2p());
    assertEquals(1, s.relayed());
    assertEquals(0, s.connectedUnknownType());
    // 18.42 ms and 64.88 ms; the third connected peer reports 0 = not measured yet, and is left out.
    assertEquals(List.of(0.018420301, 0.064880123), s.latencySeconds());
    assertEquals(0.064880123, s.latencyMaxSeconds().getAsDouble(), 1e-12);
    assertEquals((0.018420301 + 0.064880123) / 2, s.latencyMeanSeconds().getAsDouble(), 1e-12);
    assertTrue(s.usesKernelInterface());
  }

  @Test
  void olderClientWithoutLatencyAndWithStaleConnectionTypeOnDisconnectedPeers() {
    NetbirdStatus s = NetbirdStatusParser.parse(Fixtures.read("netbird-status-v0.2x.json"));
    assertEquals(4, s.peersTotal());
    assertEquals(2, s.peersConnected());
    assertEquals(1, s.p2p());
    // The Disconnected peer carrying a stale "Relayed" is not counted.
    assertEquals(1, s.relayed());
    assertEquals(List.of(), s.latencySeconds());
    assertFalse(s.latencyMeanSeconds().isPresent());
    assertFalse(s.usesKernelInterface());
  }

  @Test
  void unenrolledDaemonHasNoPeers() {
    NetbirdStatus s = NetbirdStatusParser.parse(Fixtures.read("netbird-status-unenrolled.json"));
    assertEquals(0, s.peersTotal());
    assertEquals(0, s.peersConnected());
  }

  @Test
  void withoutConnectionTypeDirectTrueIsP2pAndDirectFalseStaysUnknown() {
    String json = "{\"peers\":{\"details\":["
        + "{\"status\":\"Connected\",\"direct\":true},"
        + "{\"status\":\"Connected\",\"direct\":false},"
        + "{\"status\":\"Disconnected\",\"direct\":true}]}}";
    NetbirdStatus s = NetbirdStatusParser.parse(json);
    // total and connected missing: counted from the details.
    assertEquals(3, s.peersTotal());
    assertEquals(2, s.peersConnected());
    assertEquals(1, s.p2p());
    assertEquals(0, s.relayed());
    assertEquals(1, s.connectedUnknownType());
  }

  @Test
  void theNeedsLoginTextIsNotJsonAndSaysSo() {
    JsonException e = assertThrows(JsonException.class,
        () -> NetbirdStatusParser.parse(Fixtures.read("netbird-status-needs-login.txt")));
    assertTrue(e.getMessage().contains("line 1, column 1"), e.getMessage());
  }

  @Test
  void wrongShapesNameTheField() {
    IllegalArgumentException peers = assertThrows(IllegalArgumentException.class,
        () -> NetbirdStatusParser.parse("{\"peers\":[]}"));
    assertTrue(peers.getMessage().contains("peers: expected an object, got an array"), peers.getMessage());
    IllegalArgumentException latency = assertThrows(IllegalArgumentException.class,
        () -> NetbirdStatusParser.parse("{\"peers\":{\"details\":[{\"status\":\"Connected\",\"latency\":\"12ms\"}]}}"));
    assertTrue(latency.getMessage().contains("peers.details[0].latency: expected an integer, got a string"), latency.getMessage());
    IllegalArgumentException total = assertThrows(IllegalArgumentException.class,
        () -> NetbirdStatusParser.parse("{\"peers\":{\"total\":-1}}"));
    assertTrue(total.getMessage().contains("peers.total"), total.getMessage());
    IllegalArgumentException detail = assertThrows(IllegalArgumentException.class,
        () -> NetbirdStatusParser.parse("{\"peers\":{\"details\":[42]}}"));
    assertTrue(detail.getMessage().contains("peers.details[0]: expected an object, got an integer"), detail.getMessage());
  }

  @Test
  void netbirdsOwnTestDocumentGivesEachPeersCountersByPublicKey() {
    // The JSON NetBird's TestParsingToJSON expects, verbatim.
    NetbirdStatus s = NetbirdStatusParser.parse(Fixtures.read("netbird-status-upstream.json"));
    // Handshakes 2001-01-01T01:01:02Z and 2002-02-02T02:02:03Z; peer 2's remote ICE endpoint; peer 1 routes a network.
    assertEquals(List.of(new PeerTransfer("Pubkey1", true, 200, 100, 978_310_862L, null, 1,
            "peer-1.awesome-domain.com", Connection.P2P),
        new PeerTransfer("Pubkey2", true, 2000, 1000, 1_012_615_323L, "10.0.10.1:10002", 0,
            "peer-2.awesome-domain.com", Connection.RELAYED)), s.transfers());
    assertTrue(s.daemonConnected());
    assertTrue(s.usesKernelInterface());
    assertFalse(s.connectedWithoutKernelInterface()); // kernel WireGuard: not netstack
    assertEquals(1, s.p2p());
    assertEquals(1, s.relayed());
  }

  @Test
  void netstackModeIsConnectedWithoutAKernelInterface() {
    NetbirdStatus s = NetbirdStatusParser.parse(NetbirdJson.netstack(
        NetbirdJson.peer("Ab3xQ0n8m2VdQ7s0YpFz2wqK3v9LhT1uN6cR4eJ5oGk=", 5_000, 9_000_000), NetbirdJson.idle("idle=")));
    assertTrue(s.connectedWithoutKernelInterface());
    // An idle peer's handshake is Go's zero time (0001-01-01): never.
    assertEquals(List.of(new PeerTransfer("Ab3xQ0n8m2VdQ7s0YpFz2wqK3v9LhT1uN6cR4eJ5oGk=", true, 5_000, 9_000_000,
        java.time.Instant.parse("2026-12-01T20:00:01Z").getEpochSecond(), null, 1, "peer-1.awesome-domain.com",
        Connection.P2P),
        new PeerTransfer("idle=", false, 0, 0, 0, null, 1, "peer-2.awesome-domain.com", Connection.UNKNOWN)),
        s.transfers());
  }

  @Test
  void aDaemonNotConnectedIsNotNetstackWhateverItsInterfaceFlag() {
    NetbirdStatus idle = NetbirdStatusParser.parse(NetbirdJson.document("Idle", false, false, List.of()));
    assertFalse(idle.daemonConnected());
    assertFalse(idle.connectedWithoutKernelInterface());
    assertEquals(List.of(), idle.transfers()); // details: null
    // Never logged in: daemonStatus Idle, management not connected, no peers.
    assertFalse(NetbirdStatusParser.parse(Fixtures.read("netbird-status-unenrolled.json")).daemonConnected());
  }

  @Test
  void olderClientsWithoutDaemonStatusAreConnectedWhenManagementIs() {
    NetbirdStatus s = NetbirdStatusParser.parse(Fixtures.read("netbird-status-v0.2x.json"));
    assertTrue(s.daemonConnected());
    assertEquals(73_400_320L, s.transfers().get(0).sentBytes());
    assertEquals(1_048_576L, s.transfers().get(0).receivedBytes());
  }

  @Test
  void aNegativeCounterIsRejectedNamingThePeerAndField() {
    String bad = NetbirdJson.netstack(NetbirdJson.peer("k=", 1, 2)).replace("\"transferSent\":2", "\"transferSent\":-2");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NetbirdStatusParser.parse(bad));
    assertTrue(e.getMessage().contains("peers.details[0].transferSent"), e.getMessage());
  }
}
