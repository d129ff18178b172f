package dev.headroom.sample.census;

import dev.headroom.read.wg.Connection;

/**
 * One of the busiest tunnels, for the status page and {@code check} only: it names a device (NetBird's name for it,
 * key prefix and outer address) and must never become a metric label.
 *
 * <p>Usage: {@code String.format(Locale.ROOT, "%s %s %.0f B/s", t.shownName(), t.connection().label(), t.downloadBytesPerSecond())}
 *
 * @param key the first 8 characters of the peer's base64 public key and an ellipsis
 * @param endpoint outer address of the device, or null when unknown
 * @param downloadBytesPerSecond to the device (WireGuard tx) over the last interval
 * @param uploadBytesPerSecond from the device (WireGuard rx) over the last interval
 * @param handshakeAgeSeconds seconds since its last handshake, -1 when never
 * @param active whether it counts as an active user
 * @param name the device's name as NetBird lists it (its FQDN), null without NetBird's status or a name there
 * @param connection P2P or relayed: NetBird's word when it lists the peer connected, else its endpoint's
 */
public record Talker(
    String key,
    String endpoint,
    double downloadBytesPerSecond,
    double uploadBytesPerSecond,
    long handshakeAgeSeconds,
    boolean active,
    String name,
    Connection connection) {

  /** NetBird's name for the device, else its key prefix. */
  public String shownName() {
    return name != null ? name : key;
  }
}
