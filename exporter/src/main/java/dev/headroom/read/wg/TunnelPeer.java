package dev.headroom.read.wg;

import java.util.Base64;
import java.util.HexFormat;

/**
 * One WireGuard peer of the tunnel interface (one tunnel = one client device), as read from the UAPI
 * socket or from {@code wg show <iface> dump}. Counters are WireGuard's own per-peer byte counters: bytes
 * of WireGuard messages sent to / received from that peer (transport data plus handshakes and keepalives),
 * since the peer was added to the interface.
 *
 * <p>On the routing peer, {@code txBytes} is what it sent to the client (the client's download) and
 * {@code rxBytes} what it received from the client (the client's upload).
 *
 * <p>Its readers ({@link UapiParser}, {@link WgDumpParser}, {@link PeerTransfer#toTunnelPeer}) check the key and
 * that no figure is negative before they make one.
 *
 * <p>Usage: {@code for (TunnelPeer p : UapiParser.parse(text)) System.out.println(p.publicKeyHex() + " " + p.txBytes());}
 *
 * @param publicKeyHex the peer's public key, 64 lowercase hex digits (UAPI's spelling)
 * @param rxBytes bytes received from the peer
 * @param txBytes bytes sent to the peer
 * @param lastHandshakeEpochSeconds Unix time of the last completed handshake, 0 = never
 * @param endpoint the peer's current outer address ({@code 203.0.113.7:51820}, {@code [2001:db8::1]:51820}),
 *     or null when none is known yet
 * @param allowedIps how many allowed-IP prefixes route to this peer
 */
public record TunnelPeer(
    String publicKeyHex,
    long rxBytes,
    long txBytes,
    long lastHandshakeEpochSeconds,
    String endpoint,
    int allowedIps) {

  /** True when the peer has completed at least one handshake since it was added. */
  public boolean everHandshaked() {
    return lastHandshakeEpochSeconds != 0;
  }

  /**
   * The key as {@code wg} and NetBird print it (base64), cut to its first 8 characters plus an ellipsis:
   * enough to tell tunnels apart on a status page, not a full identifier. Keys that are not 32-byte hex are cut
   * as they are.
   */
  public String abbreviatedKey() {
    String shown = publicKeyHex;
    if (publicKeyHex.length() == 64) {
      try {
        shown = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(publicKeyHex));
      } catch (IllegalArgumentException notHex) {
        shown = publicKeyHex;
      }
    }
    return shown.length() <= 8 ? shown : shown.substring(0, 8) + "\u2026";
  }
}
