package dev.headroom.serve;

import static dev.headroom.sample.InterfaceTracker.RX_BYTES;
import static dev.headroom.sample.InterfaceTracker.RX_DROPPED;
import static dev.headroom.sample.InterfaceTracker.RX_ERRORS;
import static dev.headroom.sample.InterfaceTracker.RX_PACKETS;
import static dev.headroom.sample.InterfaceTracker.TX_BYTES;
import static dev.headroom.sample.InterfaceTracker.TX_DROPPED;
import static dev.headroom.sample.InterfaceTracker.TX_ERRORS;
import static dev.headroom.sample.InterfaceTracker.TX_PACKETS;

import dev.headroom.read.InterfaceReading;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import dev.headroom.sample.Traffic;

/**
 * The underlay NIC that carries the tunnel: counters by transmit and receive, rates, line rate and its
 * source, utilization.
 *
 * <p>Usage: {@code UnderlayMetrics.write(families, published);}
 */
final class UnderlayMetrics {
  static final Family UP = Family.gauge("headroom_underlay_up", "1 when the underlay interface exists and its counters were read.");
  static final Family INFO = Family.gauge("headroom_underlay_info", "Which NIC carries the tunnel, and where its line rate comes from.");
  static final Family BYTES = Family.counter("headroom_underlay_bytes", "Bytes on the underlay NIC.");
  static final Family PACKETS = Family.counter("headroom_underlay_packets", "Packets on the underlay NIC.");
  static final Family ERRORS = Family.counter("headroom_underlay_errors", "Underlay NIC errors.");
  static final Family DROPPED = Family.counter("headroom_underlay_dropped", "Underlay NIC drops.");
  static final Family DISCONTINUITIES = TunnelMetrics.discontinuities("headroom_underlay_discontinuities", "Underlay");
  static final Family THROUGHPUT = Family.gauge("headroom_underlay_throughput_bytes_per_second",
      "Underlay bytes per second over the last interval.");
  static final Family LINE_RATE = Family.gauge("headroom_underlay_line_rate_bytes_per_second",
      "Underlay line rate in use (config beats sysfs speed).");
  static final Family UTILIZATION = Family.gauge("headroom_underlay_utilization_ratio", "Underlay throughput over its line rate.");
  static final Family MTU = Family.gauge("headroom_underlay_mtu_bytes", "Underlay MTU.");

  private UnderlayMetrics() {}

  static void write(Families f, Published p) {
    Sample s = p.sample();
    InterfaceReading u = s.underlay();
    Traffic tr = s.underlayTraffic();
    f.gauge(UP, s.underlayUp() ? 1 : 0);
    f.gauge(INFO, 1, "interface", u.name(), "line_rate_source", s.lineRateSource());
    if (!u.present()) {
      return;
    }
    TunnelMetrics.counterPair(f, BYTES, tr, TX_BYTES, RX_BYTES, "transmit", "receive");
    TunnelMetrics.counterPair(f, PACKETS, tr, TX_PACKETS, RX_PACKETS, "transmit", "receive");
    TunnelMetrics.counterPair(f, ERRORS, tr, TX_ERRORS, RX_ERRORS, "transmit", "receive");
    TunnelMetrics.counterPair(f, DROPPED, tr, TX_DROPPED, RX_DROPPED, "transmit", "receive");
    TunnelMetrics.discontinuities(f, DISCONTINUITIES, tr);
    f.gauge(THROUGHPUT, tr.rate(TX_BYTES), "direction", "transmit");
    f.gauge(THROUGHPUT, tr.rate(RX_BYTES), "direction", "receive");
    f.gauge(LINE_RATE, s.lineRateBytesPerSecond());
    // Download leaves by transmit, upload arrives by receive.
    f.gauge(UTILIZATION, s.underlayUtilization(Direction.DOWNLOAD), "direction", "transmit");
    f.gauge(UTILIZATION, s.underlayUtilization(Direction.UPLOAD), "direction", "receive");
    f.gauge(MTU, u.mtu());
  }
}
