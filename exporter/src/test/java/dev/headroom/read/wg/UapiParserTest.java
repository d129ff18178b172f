package dev.headroom.read.wg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class UapiParserTest {

  private static final String K1 = "6d69dad9e721395fd4d68f9f9398b80a83010fcbb0fed4dbbaa27b94da46ce35";
  private static final String K2 = "9ee68e10c78e5d99c9c1290d6fdf37fe496ff00efa130da75df3ceabf0c4e371";
  private static final String K3 = "771834aab63f5308eee17b7ab2ad05c7cfc69d950fa9e6eda8fe79eddc02b10b";

  @Test
  void readsEveryPeerOfARealWireguardGoReply() {
    // Captured from wireguard-go 0.0.20220316: one peer with traffic and a handshake, one never reached,
    // one with an endpoint but no answer yet (handshake attempts counted in tx only).
    List<TunnelPeer> peers = UapiParser.parse(Fixtures.read("uapi-wireguard-go-routing-peer.txt"));
    Map<String, TunnelPeer> byKey = peers.stream().collect(Collectors.toMap(TunnelPeer::publicKeyHex, Function.identity()));
    assertEquals(3, peers.size());

    TunnelPeer talking = byKey.get(K1);
    assertEquals(6596, talking.rxBytes());
    assertEquals(24820, talking.txBytes());
    assertEquals(1796007311L, talking.lastHandshakeEpochSeconds());
    assertEquals("192.168.250.2:51001", talking.endpoint());
    assertEquals(2, talking.allowedIps());

    TunnelPeer silent = byKey.get(K2);
    assertEquals(0, silent.rxBytes());
    assertEquals(0, silent.txBytes());
    assertEquals(0, silent.lastHandshakeEpochSeconds());
    assertFalse(silent.everHandshaked());
    assertNull(silent.endpoint());
    assertEquals(1, silent.allowedIps());

    TunnelPeer unanswered = byKey.get(K3);
    assertEquals("[::1]:51003", unanswered.endpoint());
    assertEquals(592, unanswered.txBytes());
    assertEquals(3, unanswered.allowedIps());
  }

  @Test
  void readsTheClientSideOfTheSameTunnelWithMirroredCounters() {
    List<TunnelPeer> peers = UapiParser.parse(Fixtures.read("uapi-wireguard-go-client.txt"));
    assertEquals(1, peers.size());
    // The client received what the routing peer sent (give or take packets in flight).
    assertEquals(6596, peers.get(0).txBytes());
    assertEquals(24524, peers.get(0).rxBytes());
  }

  @Test
  void neverKeepsSecrets() {
    String reply = Fixtures.read("uapi-wireguard-go-routing-peer.txt");
    String all = UapiParser.parse(reply).toString();
    assertFalse(all.contains("aaaaaaaa"), "private key leaked into parsed peers");
    assertFalse(all.contains("bbbbbbbb"), "preshared key leaked into parsed peers");
  }

  @Test
  void interfaceWithNoPeersIsAnEmptyList() {
    assertEquals(List.of(), UapiParser.parse("private_key=" + "a".repeat(64) + "\nlisten_port=51820\nerrno=0\n\n"));
    assertEquals(List.of(), UapiParser.parse("errno=0\n\n"));
  }

  @Test
  void nonZeroErrnoIsAClearException() {
    UapiErrnoException e = assertThrows(UapiErrnoException.class, () -> UapiParser.parse(Fixtures.read("uapi-errno.txt")));
    assertTrue(e.getMessage().contains("errno=-22") && e.getMessage().contains("EINVAL"), e.getMessage());
  }

  @Test
  void replyCutMidPeerIsReportedAsTruncated() {
    String full = Fixtures.read("uapi-wireguard-go-routing-peer.txt");
    String cut = full.substring(0, full.indexOf("tx_bytes=0"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UapiParser.parse(cut));
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
  }

  @Test
  void emptyReplyIsReportedAsNoAnswer() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UapiParser.parse(""));
    assertTrue(e.getMessage().contains("empty UAPI reply"), e.getMessage());
  }

  @Test
  void unknownKeysAtBothLevelsAreIgnored() {
    String reply = "private_key=" + "a".repeat(64) + "\nlisten_port=1\nfwmark=51820\njc=4\nh1=12345\n"
        + "public_key=" + K1 + "\nprotocol_version=1\nfuture_key=whatever\nrx_bytes=10\ntx_bytes=20\n"
        + "last_handshake_time_sec=5\nlast_handshake_time_nsec=7\nallowed_ip=10.0.0.1/32\nerrno=0\n\n";
    TunnelPeer p = UapiParser.parse(reply).get(0);
    assertEquals(new TunnelPeer(K1, 10, 20, 5, null, 1), p);
  }

  @Test
  void peerWithoutCounterLinesDefaultsToZero() {
    TunnelPeer p = UapiParser.parse("public_key=" + K2 + "\nerrno=0\n\n").get(0);
    assertEquals(new TunnelPeer(K2, 0, 0, 0, null, 0), p);
  }

  @Test
  void readsThousandsOfPeersInOrder() {
    StringBuilder sb = new StringBuilder("listen_port=51820\n");
    for (int i = 0; i < 5000; i++) {
      sb.append("public_key=").append(String.format("%064x", i)).append('\n')
          .append("rx_bytes=").append(i).append("\ntx_bytes=").append(2L * i).append('\n')
          .append("allowed_ip=100.64.").append(i / 256).append('.').append(i % 256).append("/32\n");
    }
    sb.append("errno=0\n\n");
    List<TunnelPeer> peers = UapiParser.parse(sb.toString());
    assertEquals(5000, peers.size());
    assertEquals(4999, peers.get(4999).rxBytes());
    assertEquals(9998, peers.get(4999).txBytes());
  }

  @Test
  void countersNearTheUint64CeilingAreRefusedNotWrapped() {
    String reply = "public_key=" + K1 + "\nrx_bytes=18446744073709551615\nerrno=0\n\n";
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UapiParser.parse(reply));
    assertTrue(e.getMessage().contains("rx_bytes"), e.getMessage());
  }

  @Test
  void malformedLinesNameTheLine() {
    IllegalArgumentException noEq = assertThrows(IllegalArgumentException.class,
        () -> UapiParser.parse("public_key=" + K1 + "\ngarbage\nerrno=0\n\n"));
    assertTrue(noEq.getMessage().contains("line 2") && noEq.getMessage().contains("garbage"), noEq.getMessage());

    IllegalArgumentException nan = assertThrows(IllegalArgumentException.class,
        () -> UapiParser.parse("public_key=" + K1 + "\ntx_bytes=12x\nerrno=0\n\n"));
    assertTrue(nan.getMessage().contains("tx_bytes=\"12x\""), nan.getMessage());

    IllegalArgumentException orphan = assertThrows(IllegalArgumentException.class,
        () -> UapiParser.parse("rx_bytes=1\nerrno=0\n\n"));
    assertTrue(orphan.getMessage().contains("before any public_key"), orphan.getMessage());

    IllegalArgumentException shortKey = assertThrows(IllegalArgumentException.class,
        () -> UapiParser.parse("public_key=abcd\nerrno=0\n\n"));
    assertTrue(shortKey.getMessage().contains("64 hex digits"), shortKey.getMessage());

    IllegalArgumentException badErrno = assertThrows(IllegalArgumentException.class,
        () -> UapiParser.parse("errno=x\n\n"));
    assertTrue(badErrno.getMessage().contains("errno"), badErrno.getMessage());
  }

  @Test
  void stopsAtTheBlankLineThatEndsTheReply() {
    List<TunnelPeer> peers = UapiParser.parse("public_key=" + K1 + "\nerrno=0\n\npublic_key=" + K2 + "\n");
    assertEquals(1, peers.size());
  }

  @Test
  void abbreviatedKeyMatchesWhatWgPrints() {
    // wg show prints bWna2echOV/U1o+fk5i4CoMBD8uw/tTbuqJ7lNpGzjU= for this peer.
    assertEquals("bWna2ech\u2026", new TunnelPeer(K1, 0, 0, 0, null, 0).abbreviatedKey());
  }
}
