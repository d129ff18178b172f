package dev.headroom.read.wg;

import java.util.Base64;
import java.util.HexFormat;

/**
 * One peer's WireGuard byte counters as NetBird reports them in {@code netbird status --json}
 * ({@code transferSent}, {@code transferReceived}): bytes since the WireGuard peer was (re)added, so a peer
 * that reconnects, rotates its key or goes idle under lazy connections starts again at 0. On the routing peer,
 * {@code sentBytes} is what it encrypted for that peer (the peer's download), {@code receivedBytes} what it
 * decrypted from it (the peer's upload).
 *
 * <p>Usage: {@code long down = status.transfers().stream().mapToLong(PeerTransfer::sentBytes).sum();}
 *
 * @param publicKey the peer's WireGuard public key as NetBird prints it (base64), never empty
 * @param connected NetBird lists the peer as {@code Connected} (its counters are 0 otherwise)
 * @param lastHandshakeEpochSeconds {@code lastWireguardHandshake} as Unix time, 0 = never (Go's zero time)
 * @param endpoint the peer's remote ICE endpoint ({@code 198.51.100.23:40312}), null when NetBird shows none
 * @param networks routes NetBird lists behind the peer
 * @param name the device's name as NetBird lists it ({@code fqdn}), null when it gives none
 * @param connection how a connected peer is carried ({@code connectionType}); unknown when not connected
 */
public record PeerTransfer(String publicKey, boolean connected, long receivedBytes, long sentBytes,
    long lastHandshakeEpochSeconds, String endpoint, int networks, String name, Connection connection) {
  /**
   * The peer as one tunnel of the census: the key in UAPI's hex when it is a WireGuard key (so one tunnel has one
   * key whichever reader saw it), its own address plus its routes as allowed IPs.
   */
  public TunnelPeer toTunnelPeer() {
    return new TunnelPeer(hexKey(), receivedBytes, sentBytes, lastHandshakeEpochSeconds, endpoint, 1 + networks);
  }

  /** The key in UAPI's hex when it is a WireGuard key, else as NetBird printed it: how the census keys a tunnel. */
  public String hexKey() {
    try {
      byte[] raw = Base64.getDecoder().decode(publicKey);
      if (raw.length == 32) {
        return HexFormat.of().formatHex(raw);
      }
    } catch (IllegalArgumentException notBase64) {
      // kept as NetBird printed it
    }
    return publicKey;
  }
}
