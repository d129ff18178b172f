package dev.headroom.read;

/**
 * The eight statistics counters of a network interface, raw from sysfs (unsigned 64-bit in a long).
 *
 * <p>Usage: {@code long tx = reading.counters().txBytes();}
 */
public record InterfaceCounters(
    long rxBytes,
    long txBytes,
    long rxPackets,
    long txPackets,
    long rxErrors,
    long txErrors,
    long rxDropped,
    long txDropped) {

  /** Names of the sysfs files under {@code statistics/}, in component order. */
  static final String[] FILES = {
    "rx_bytes", "tx_bytes", "rx_packets", "tx_packets", "rx_errors", "tx_errors", "rx_dropped", "tx_dropped"
  };

  static InterfaceCounters of(long[] v) {
    return new InterfaceCounters(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
  }

  /** The counters in component order, the order of {@link #FILES} and of the sampler's field indexes. */
  public long[] toArray() {
    return new long[] {rxBytes, txBytes, rxPackets, txPackets, rxErrors, txErrors, rxDropped, txDropped};
  }
}
