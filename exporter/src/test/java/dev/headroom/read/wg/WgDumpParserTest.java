package dev.headroom.read.wg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class WgDumpParserTest {

  @Test
  void readsTheRealDumpOfTheSameInterfaceAsTheUapiFixture() {
    // Both fixtures were captured from one wireguard-go interface seconds apart: same keys, same counters.
    List<TunnelPeer> dump = sorted(WgDumpParser.parse(Fixtures.read("wg-dump-routing-peer.txt")));
    List<TunnelPeer> uapi = sorted(UapiParser.parse(Fixtures.read("uapi-wireguard-go-routing-peer.txt")));
    assertEquals(uapi, dump);
  }

  @Test
  void mapsNoneAndZeroToAbsentValues() {
    List<TunnelPeer> peers = WgDumpParser.parse(Fixtures.read("wg-dump-routing-peer.txt"));
    TunnelPeer silent = peers.get(1); // nuaOEMeO...: never reached, has a preshared key
    assertEquals(null, silent.endpoint());
    assertEquals(0, silent.lastHandshakeEpochSeconds());
    assertEquals(1, silent.allowedIps());
    TunnelPeer talking = peers.get(0);
    assertEquals(6596, talking.rxBytes());
    assertEquals(24820, talking.txBytes());
    assertEquals(2, talking.allowedIps());
  }

  @Test
  void neverKeepsTheInterfacePrivateKeyOrPresharedKeys() {
    String all = WgDumpParser.parse(Fixtures.read("wg-dump-routing-peer.txt")).toString();
    assertFalse(all.contains("qqqqqqqq") || all.contains("aaaaaaaa"), all);
    assertFalse(all.contains("u7u7u7u7") || all.contains("bbbbbbbb"), all);
  }

  @Test
  void peerWithNoAllowedIpsAndCrLfLineEndings() {
    String dump = "priv\tpub\t51820\toff\r\n"
        + "bWna2echOV/U1o+fk5i4CoMBD8uw/tTbuqJ7lNpGzjU=\t(none)\t(none)\t(none)\t0\t0\t0\toff\r\n";
    TunnelPeer p = WgDumpParser.parse(dump).get(0);
    assertEquals(0, p.allowedIps());
    assertEquals("6d69dad9e721395fd4d68f9f9398b80a83010fcbb0fed4dbbaa27b94da46ce35", p.publicKeyHex());
  }

  @Test
  void interfaceWithoutPeersIsEmpty() {
    assertEquals(List.of(), WgDumpParser.parse("priv\tpub\t51820\toff\n"));
  }

  @Test
  void refusesAllInterfacesDumpAndNamesTheFix() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> WgDumpParser.parse("wt0\tpriv\tpub\t51820\toff\n"));
    assertTrue(e.getMessage().contains("wg show all dump"), e.getMessage());
  }

  @Test
  void badLinesNameTheLineAndField() {
    String iface = "priv\tpub\t51820\toff\n";
    String key = "bWna2echOV/U1o+fk5i4CoMBD8uw/tTbuqJ7lNpGzjU=";
    IllegalArgumentException fields = assertThrows(IllegalArgumentException.class,
        () -> WgDumpParser.parse(iface + key + "\t(none)\n"));
    assertTrue(fields.getMessage().contains("line 2 has 2"), fields.getMessage());
    IllegalArgumentException rx = assertThrows(IllegalArgumentException.class,
        () -> WgDumpParser.parse(iface + key + "\t(none)\t(none)\t(none)\t0\tmany\t0\toff\n"));
    assertTrue(rx.getMessage().contains("transfer-rx \"many\""), rx.getMessage());
    IllegalArgumentException k = assertThrows(IllegalArgumentException.class,
        () -> WgDumpParser.parse(iface + "c2hvcnQ=\t(none)\t(none)\t(none)\t0\t0\t0\toff\n"));
    assertTrue(k.getMessage().contains("expected 32"), k.getMessage());
    assertThrows(IllegalArgumentException.class, () -> WgDumpParser.parse(""));
  }

  private static List<TunnelPeer> sorted(List<TunnelPeer> peers) {
    return peers.stream().sorted(Comparator.comparing(TunnelPeer::publicKeyHex)).toList();
  }
}
