package dev.headroom.read.wg;

import java.util.Objects;

/**
 * One peer's WireGuard byte counters as NetBird reports them in {@code netbird status --json}
 * ({@code transferSent}, {@code transferReceived}): bytes since the WireGuard peer was (re)added, so a peer
 * that reconnects, rotates its key or goes idle under lazy connections starts again at 0. On the routing peer,
 * {@code sentBytes} is what it encrypted for that peer (the peer's download), {@code receivedBytes} what it
 * decrypted from it (the peer's upload).
 *
 * <p>Usage: {@code long down = status.transfers().stream().mapToLong(PeerTransfer::sentBytes).sum();}
 *
 * @param publicKey the peer's WireGuard public key as NetBird prints it (base64)
 * @param connected NetBird lists the peer as {@code Connected} (its counters are 0 otherwise)
 */
public record PeerTransfer(String publicKey, boolean connected, long receivedBytes, long sentBytes) {
  public PeerTransfer {
    Objects.requireNonNull(publicKey, "publicKey");
  }
}
