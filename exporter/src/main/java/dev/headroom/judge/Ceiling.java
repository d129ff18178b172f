package dev.headroom.judge;

import java.util.Objects;

/**
 * The throughput one direction of the peer can carry, where that number came from, and why, in words.
 *
 * <p>Usage: {@code double util = rate / ceiling.bytesPerSecond(); log(ceiling.basis());}
 *
 * @param bytesPerSecond inner (tunnel) bytes per second, positive and finite
 * @param source         where it came from
 * @param basis          e.g. "reference: kernel WireGuard, 16 cores, MTU 1280, capped by 10 Gbps NIC"
 * @param linkCapped     the NIC's line rate set it, not the CPU: holding it is the link's limit, not the datapath's
 */
public record Ceiling(double bytesPerSecond, CeilingSource source, String basis, boolean linkCapped) {
  public Ceiling {
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException("ceiling must be a positive number of bytes/s, got " + bytesPerSecond);
    }
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(basis, "basis");
  }

  /** The ceiling in Gbps (bits), as people say it. */
  public double gbps() {
    return Units.gbps(bytesPerSecond);
  }
}
