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
 * The tunnel interface: presence, counters by direction (download = TX, the peer encrypts), rates, peaks,
 * restarts and dropped deltas, and its attributes.
 *
 * <p>Usage: {@code TunnelMetrics.write(families, published, "wt0");}
 */
final class TunnelMetrics {
  static final Family UP = Family.gauge("headroom_tunnel_up",
      "1 when the tunnel interface exists and its counters were read (netstack datapath: NetBird's status call answered).");
  static final Family INFO = Family.gauge("headroom_tunnel_info", "The configured tunnel interface.");
  static final Family BYTES = Family.counter("headroom_tunnel_bytes",
      "Inner IP bytes across the tunnel (download = TX, the peer encrypts; upload = RX, it decrypts).");
  static final Family PACKETS = Family.counter("headroom_tunnel_packets", "Packets across the tunnel.");
  static final Family ERRORS = Family.counter("headroom_tunnel_errors", "Tunnel interface errors.");
  static final Family DROPPED = Family.counter("headroom_tunnel_dropped", "Tunnel interface drops.");
  static final Family RESTARTS = Family.counter("headroom_tunnel_restarts",
      "Tunnel counter restarts seen (interface recreated, ifindex change, a byte or packet counter went backwards).");
  static final Family DISCONTINUITIES = discontinuities("headroom_tunnel_discontinuities", "Tunnel");
  static final Family THROUGHPUT = Family.gauge("headroom_tunnel_throughput_bytes_per_second",
      "Tunnel bytes per second over the last sample interval.");
  static final Family PACKET_RATE = Family.gauge("headroom_tunnel_packets_per_second",
      "Tunnel packets per second over the last sample interval.");
  static final Family PACKET_SIZE = Family.gauge("headroom_tunnel_mean_packet_size_bytes",
      "Mean tunnel packet size over the last interval (0 when idle).");
  static final Family PEAK = Family.gauge("headroom_tunnel_peak_throughput_bytes_per_second",
      "Highest one-interval tunnel rate over the sliding peak window (--sample.peak-window, on the sampler's clock).");
  static final Family MTU = Family.gauge("headroom_tunnel_mtu_bytes", "Tunnel MTU.");
  static final Family IFINDEX = Family.gauge("headroom_tunnel_ifindex",
      "Kernel ifindex of the tunnel (changes when it is recreated).");
  static final Family OPER_UP = Family.gauge("headroom_tunnel_oper_up",
      "1 when the tunnel's operstate is up or unknown (TUN devices say unknown).");
  static final Family THREADED_NAPI = Family.gauge("headroom_tunnel_threaded_napi",
      "1 when the tunnel's receive runs in threaded NAPI kthreads.");

  private TunnelMetrics() {}

  /** The dropped-delta family of an interface; tunnel and underlay differ only in name and subject. */
  static Family discontinuities(String name, String what) {
    return Family.counter(name, what + " counter deltas dropped: faster than the interface could carry (reason=too_fast), or an"
        + " error or drop counter going back while bytes and packets did not (reason=went_back).");
  }

  static void discontinuities(Families f, Family family, Traffic tr) {
    f.counter(family, tr.tooFast(), "reason", "too_fast");
    f.counter(family, tr.wentBack(), "reason", "went_back");
  }

  /** One counter family, transmit and receive, under the direction labels the area uses. */
  static void counterPair(Families f, Family family, Traffic tr, int tx, int rx, String txLabel, String rxLabel) {
    f.counter(family, tr.total(tx), "direction", txLabel);
    f.counter(family, tr.total(rx), "direction", rxLabel);
  }

  static void write(Families f, Published p, String tunnelInterface) {
    Sample s = p.sample();
    InterfaceReading t = s.tunnel();
    Traffic tr = s.tunnelTraffic();
    f.gauge(UP, s.tunnelUp() ? 1 : 0);
    f.gauge(INFO, 1, "interface", tunnelInterface);
    counterPair(f, BYTES, tr, TX_BYTES, RX_BYTES, "download", "upload");
    counterPair(f, PACKETS, tr, TX_PACKETS, RX_PACKETS, "download", "upload");
    counterPair(f, ERRORS, tr, TX_ERRORS, RX_ERRORS, "download", "upload");
    counterPair(f, DROPPED, tr, TX_DROPPED, RX_DROPPED, "download", "upload");
    f.counter(RESTARTS, tr.restarts());
    discontinuities(f, DISCONTINUITIES, tr);
    for (Direction d : Direction.values()) {
      f.gauge(THROUGHPUT, s.throughput(d), "direction", d.label());
      f.gauge(PACKET_RATE, s.packetRate(d), "direction", d.label());
      f.gauge(PACKET_SIZE, s.meanPacketSize(d), "direction", d.label());
      f.gauge(PEAK, s.peak(d), "direction", d.label(), "window", "sliding");
    }
    if (t.present()) {
      f.gauge(MTU, t.mtu());
      f.gauge(IFINDEX, t.ifindex());
      f.gauge(OPER_UP, t.operUp() ? 1 : 0);
      if (t.threaded().isPresent()) {
        f.gauge(THREADED_NAPI, t.threaded().getAsInt());
      }
    }
  }
}
