package dev.headroom.serve;

import static dev.headroom.sample.InterfaceTracker.RX_BYTES;
import static dev.headroom.sample.InterfaceTracker.RX_DROPPED;
import static dev.headroom.sample.InterfaceTracker.RX_ERRORS;
import static dev.headroom.sample.InterfaceTracker.RX_PACKETS;
import static dev.headroom.sample.InterfaceTracker.TX_BYTES;
import static dev.headroom.sample.InterfaceTracker.TX_DROPPED;
import static dev.headroom.sample.InterfaceTracker.TX_ERRORS;
import static dev.headroom.sample.InterfaceTracker.TX_PACKETS;

import dev.headroom.judge.Advice;
import dev.headroom.judge.CeilingSource;
import dev.headroom.judge.Judgement;
import dev.headroom.judge.Verdict;
import dev.headroom.read.CpuTimes;
import dev.headroom.read.Datapath;
import dev.headroom.read.InterfaceReading;
import dev.headroom.read.wg.NetbirdStatus;
import dev.headroom.sample.Core;
import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.CensusTotals;
import dev.headroom.sample.census.RateHistogram;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import dev.headroom.sample.SourceHealth;
import dev.headroom.sample.Traffic;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Renders the latest published state as metric families. Reads only the immutable snapshot (and takes the
 * since-last-scrape peaks); never touches sysfs.
 *
 * <p>Usage: {@code registry.register(new HeadroomCollector(published::get, info));}
 */
public final class HeadroomCollector implements MultiCollector {
  private static final String[] DATAPATHS = {"kernel", "userspace", "absent"};

  private final Supplier<Published> state;
  private final ExporterInfo info;

  public HeadroomCollector(Supplier<Published> state, ExporterInfo info) {
    this.state = state;
    this.info = info;
  }

  /** Static facts about this exporter and peer. */
  public record ExporterInfo(String version, String network, String site, String tunnelInterface, double saturation) {}

  @Override
  public MetricSnapshots collect() {
    Families f = new Families();
    f.gauge("headroom_build_info", "Build of this exporter.", 1, "version", info.version());
    f.gauge("headroom_peer_info", "The operator's placement of this routing peer.", 1,
        "network", info.network(), "site", info.site());
    Published p = state.get();
    if (p == null) {
      return f.build();
    }
    Sample s = p.sample();
    tunnel(f, s, p);
    datapath(f, s);
    underlay(f, s);
    cpu(f, s);
    verdict(f, p);
    census(f, s);
    netbird(f, p.netbird());
    self(f, s);
    timing(f, p.timing());
    return f.build();
  }

  private void tunnel(Families f, Sample s, Published p) {
    InterfaceReading t = s.tunnel();
    Traffic tr = s.tunnelTraffic();
    f.gauge("headroom_tunnel_up", "1 when the tunnel interface exists and its counters were read.", s.tunnelUp() ? 1 : 0);
    f.gauge("headroom_tunnel_info", "The configured tunnel interface.", 1, "interface", info.tunnelInterface());
    counterPair(f, "headroom_tunnel_bytes", "Inner IP bytes across the tunnel (download = TX, the peer encrypts; upload = RX, it decrypts).",
        tr, TX_BYTES, RX_BYTES, "download", "upload");
    counterPair(f, "headroom_tunnel_packets", "Packets across the tunnel.", tr, TX_PACKETS, RX_PACKETS, "download", "upload");
    counterPair(f, "headroom_tunnel_errors", "Tunnel interface errors.", tr, TX_ERRORS, RX_ERRORS, "download", "upload");
    counterPair(f, "headroom_tunnel_dropped", "Tunnel interface drops.", tr, TX_DROPPED, RX_DROPPED, "download", "upload");
    f.counter("headroom_tunnel_restarts", "Tunnel counter restarts seen (interface recreated, ifindex change, a byte or packet counter went backwards).", tr.restarts());
    discontinuities(f, "headroom_tunnel_discontinuities", "Tunnel", tr);
    for (Direction d : Direction.values()) {
      f.gauge("headroom_tunnel_throughput_bytes_per_second", "Tunnel bytes per second over the last sample interval.",
          s.throughput(d), "direction", d.label());
    }
    for (Direction d : Direction.values()) {
      f.gauge("headroom_tunnel_packets_per_second", "Tunnel packets per second over the last sample interval.",
          s.packetRate(d), "direction", d.label());
    }
    for (Direction d : Direction.values()) {
      f.gauge("headroom_tunnel_mean_packet_size_bytes", "Mean tunnel packet size over the last interval (0 when idle).",
          s.meanPacketSize(d), "direction", d.label());
    }
    for (Direction d : Direction.values()) {
      String help = "Highest one-interval tunnel rate: since the previous scrape (window=scrape) or over the sliding peak window (window=sliding).";
      f.gauge("headroom_tunnel_peak_throughput_bytes_per_second", help, p.peaks().take(d), "direction", d.label(), "window", "scrape");
      f.gauge("headroom_tunnel_peak_throughput_bytes_per_second", help, s.peak(d), "direction", d.label(), "window", "sliding");
    }
    if (t.present()) {
      f.gauge("headroom_tunnel_mtu_bytes", "Tunnel MTU.", t.mtu());
      f.gauge("headroom_tunnel_ifindex", "Kernel ifindex of the tunnel (changes when it is recreated).", t.ifindex());
      f.gauge("headroom_tunnel_oper_up", "1 when the tunnel's operstate is up or unknown (TUN devices say unknown).", t.operUp() ? 1 : 0);
      if (t.threaded().isPresent()) {
        f.gauge("headroom_tunnel_threaded_napi", "1 when the tunnel's receive runs in threaded NAPI kthreads.", t.threaded().getAsInt());
      }
    }
  }

  private static void discontinuities(Families f, String name, String what, Traffic tr) {
    String help = what + " counter deltas dropped: faster than the interface could carry (reason=too_fast), or an"
        + " error or drop counter going back while bytes and packets did not (reason=went_back).";
    f.counter(name, help, tr.tooFast(), "reason", "too_fast");
    f.counter(name, help, tr.wentBack(), "reason", "went_back");
  }

  private static void counterPair(Families f, String name, String help, Traffic tr, int tx, int rx, String txLabel, String rxLabel) {
    f.counter(name, help, tr.total(tx), "direction", txLabel);
    f.counter(name, help, tr.total(rx), "direction", rxLabel);
  }

  private void datapath(Families f, Sample s) {
    f.stateSet("headroom_datapath", "Which WireGuard datapath runs the tunnel (one series per state).", "datapath",
        DATAPATHS, java.util.Set.of(s.datapath().label()));
    if (s.datapath() != Datapath.ABSENT) {
      f.counter("headroom_datapath_cpu_seconds", "CPU time of the datapath (userspace: its process; kernel: softirq and WireGuard kernel threads).",
          s.datapathCpuSeconds());
      f.gauge("headroom_datapath_cpu_cores", "Datapath CPU over the last interval, in cores.", s.datapathCores());
    }
  }

  private void underlay(Families f, Sample s) {
    InterfaceReading u = s.underlay();
    Traffic tr = s.underlayTraffic();
    f.gauge("headroom_underlay_up", "1 when the underlay interface exists and its counters were read.", s.underlayUp() ? 1 : 0);
    f.gauge("headroom_underlay_info", "Which NIC carries the tunnel, and where its line rate comes from.", 1,
        "interface", u.name(), "line_rate_source", s.lineRateSource());
    if (!u.present()) {
      return;
    }
    counterPair(f, "headroom_underlay_bytes", "Bytes on the underlay NIC.", tr, TX_BYTES, RX_BYTES, "transmit", "receive");
    counterPair(f, "headroom_underlay_packets", "Packets on the underlay NIC.", tr, TX_PACKETS, RX_PACKETS, "transmit", "receive");
    counterPair(f, "headroom_underlay_errors", "Underlay NIC errors.", tr, TX_ERRORS, RX_ERRORS, "transmit", "receive");
    counterPair(f, "headroom_underlay_dropped", "Underlay NIC drops.", tr, TX_DROPPED, RX_DROPPED, "transmit", "receive");
    discontinuities(f, "headroom_underlay_discontinuities", "Underlay", tr);
    f.gauge("headroom_underlay_throughput_bytes_per_second", "Underlay bytes per second over the last interval.",
        tr.rate(TX_BYTES), "direction", "transmit");
    f.gauge("headroom_underlay_throughput_bytes_per_second", "Underlay bytes per second over the last interval.",
        tr.rate(RX_BYTES), "direction", "receive");
    f.gauge("headroom_underlay_line_rate_bytes_per_second", "Underlay line rate in use (config beats sysfs speed).",
        s.lineRateBytesPerSecond());
    f.gauge("headroom_underlay_utilization_ratio", "Underlay throughput over its line rate.",
        s.underlayUtilization(Direction.DOWNLOAD), "direction", "transmit");
    f.gauge("headroom_underlay_utilization_ratio", "Underlay throughput over its line rate.",
        s.underlayUtilization(Direction.UPLOAD), "direction", "receive");
    f.gauge("headroom_underlay_mtu_bytes", "Underlay MTU.", u.mtu());
  }

  private void cpu(Families f, Sample s) {
    for (Core c : s.cores()) {
      if (c.online()) {
        CpuTimes t = c.times();
        for (int m = 0; m < CpuTimes.MODES.length; m++) {
          f.counter("headroom_cpu_seconds", "Per-core time by mode, keyed by the kernel's CPU id.", t.mode(m) / 1000.0,
              "cpu", Integer.toString(c.cpu()), "mode", CpuTimes.MODES[m]);
        }
      }
    }
    for (Core c : s.cores()) {
      if (c.online()) {
        f.gauge("headroom_cpu_busy_ratio", "Non-idle share of the last interval per core (iowait counts as idle).", c.busy(),
            "cpu", Integer.toString(c.cpu()));
      }
    }
    for (Core c : s.cores()) {
      f.gauge("headroom_cpu_online", "1 when the core is online.", c.online() ? 1 : 0, "cpu", Integer.toString(c.cpu()));
    }
    if (!s.cores().isEmpty()) { // empty: the CPU could not be read, so neither count is known
      f.gauge("headroom_cpus_online", "Online cores.", s.onlineCores());
    }
    Core hot = s.hottestCore();
    if (hot != null) {
      f.gauge("headroom_cpu_hottest_busy_ratio", "Busy ratio of the busiest core.", hot.busy());
    }
    if (!s.cores().isEmpty()) {
      f.gauge("headroom_cpus_saturated", "Cores at or above the saturation threshold.", s.saturatedCores(info.saturation()));
    }
    if (s.cpuPerGigabyte() != null) {
      String help = "CPU seconds of all cores per 10^9 tunnel bytes (both directions) over the last interval.";
      f.gauge("headroom_cpu_seconds_per_gigabyte", help, s.cpuPerGigabyte().user(), "mode", "user");
      f.gauge("headroom_cpu_seconds_per_gigabyte", help, s.cpuPerGigabyte().system(), "mode", "system");
      f.gauge("headroom_cpu_seconds_per_gigabyte", help, s.cpuPerGigabyte().softirq(), "mode", "softirq");
    }
  }

  private static final String[] SOURCES = labels(CeilingSource.values());
  private static final String[] VERDICTS = labels(Verdict.values());
  private static final String[] ADVICE = labels(Advice.values());

  private static String[] labels(Enum<?>[] values) {
    String[] out = new String[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = values[i] instanceof Verdict v ? v.label()
          : values[i] instanceof Advice a ? a.label() : ((CeilingSource) values[i]).label();
    }
    return out;
  }

  private void verdict(Families f, Published p) {
    Judgement j = p.judgement();
    if (j == null) {
      return;
    }
    Sample s = p.sample();
    for (Direction d : Direction.values()) {
      f.gauge("headroom_ceiling_bytes_per_second", "The ceiling in use for the direction.",
          j.of(d).ceiling().bytesPerSecond(), "direction", d.label());
    }
    for (Direction d : Direction.values()) {
      f.stateSet("headroom_ceiling_source", "Where the ceiling comes from: profile (measured here), config, or the reference tables.",
          "source", SOURCES, Set.of(j.of(d).ceiling().source().label()), "direction", d.label());
    }
    for (Direction d : Direction.values()) {
      f.gauge("headroom_utilization_ratio", "Tunnel throughput over the ceiling.", j.of(d).utilization(), "direction", d.label());
    }
    for (Direction d : Direction.values()) {
      double ceiling = j.of(d).ceiling().bytesPerSecond();
      f.gauge("headroom_peak_utilization_ratio", "Sliding-window peak throughput over the ceiling.",
          ceiling > 0 ? s.peak(d) / ceiling : Double.NaN, "direction", d.label());
    }
    for (Direction d : Direction.values()) {
      f.stateSet("headroom_verdict", "What limits the direction now (one series per state).", "verdict", VERDICTS,
          Set.of(j.of(d).verdict().label()), "direction", d.label());
    }
    Set<String> advice = new java.util.HashSet<>();
    j.adviceSet().forEach(a -> advice.add(a.label()));
    f.stateSet("headroom_advice", "What to do (one series per recommendation; the reason is on / and /api/v1/status).",
        "advice", ADVICE, advice);
  }

  private static final double[] RATE_BOUNDS = withInf(RateHistogram.upperBounds());

  private static double[] withInf(double[] bounds) {
    double[] b = java.util.Arrays.copyOf(bounds, bounds.length + 1);
    b[bounds.length] = Double.POSITIVE_INFINITY;
    return b;
  }

  private void census(Families f, Sample s) {
    CensusSnapshot c = s.census();
    if (c == null) {
      return;
    }
    String help = "Tunnels (one per client device): all, with a handshake in the last 180 s, and active (moving data).";
    f.gauge("headroom_tunnels", help, c.tunnels(), "state", "total");
    f.gauge("headroom_tunnels", help, c.handshakeRecent(), "state", "handshake_recent");
    f.gauge("headroom_tunnels", help, c.active(), "state", "active");
    CensusTotals totals = s.censusTotals();
    if (totals != null) {
      for (Direction d : Direction.values()) {
        f.histogram("headroom_tunnel_rate_bytes_per_second",
            "Per-tunnel rates of the active tunnels, observed at every census (no per-tunnel series).",
            RATE_BOUNDS, totals.perBucket(d), totals.sum(d), "direction", d.label());
      }
    }
    if (!c.hasRates()) {
      return;
    }
    for (Direction d : Direction.values()) {
      f.gauge("headroom_tunnel_hottest_bytes_per_second", "Rate of the fastest tunnel (one tunnel is about one core).",
          c.direction(d).hottestBytesPerSecond(), "direction", d.label());
    }
    for (Direction d : Direction.values()) {
      f.gauge("headroom_tunnel_hottest_share_ratio", "The fastest tunnel's share of the direction's tunnel traffic.",
          c.direction(d).hottestShare(), "direction", d.label());
    }
    for (Direction d : Direction.values()) {
      f.gauge("headroom_active_user_mean_bytes_per_second", "Mean rate per active tunnel: the observed per-user rate for sizing.",
          c.direction(d).activeMeanBytesPerSecond(), "direction", d.label());
    }
  }

  private void netbird(Families f, NetbirdStatus n) {
    if (n == null) {
      return;
    }
    String help = "Connected NetBird peers by connection type, from 'netbird status --json'.";
    f.gauge("headroom_netbird_peers", help, n.p2p(), "connection", "p2p");
    f.gauge("headroom_netbird_peers", help, n.relayed(), "connection", "relayed");
    f.gauge("headroom_netbird_peers", help, n.connectedUnknownType(), "connection", "unknown");
    f.gauge("headroom_netbird_peers_listed", "Peers NetBird lists, connected or not.", n.peersTotal());
    n.latencyMeanSeconds().ifPresent(v -> f.gauge("headroom_netbird_peer_latency_mean_seconds", "Mean latency NetBird reports for its connected peers.", v));
    n.latencyMaxSeconds().ifPresent(v -> f.gauge("headroom_netbird_peer_latency_max_seconds", "Highest latency NetBird reports for its connected peers.", v));
  }

  private static final double[] LATENESS_BOUNDS = SamplerTiming.upperBounds();

  private static void timing(Families f, SamplerTiming t) {
    f.histogram("headroom_sample_lateness_seconds",
        "How late each sample started against its planned start (a busy peer delays the sampling thread).",
        LATENESS_BOUNDS, t.perBucket(), t.lateSecondsSum());
    f.counter("headroom_samples_skipped", "Planned samples skipped because a later one was already due.", t.skipped());
  }

  private void self(Families f, Sample s) {
    f.counter("headroom_samples", "Samples taken.", s.sequence());
    f.gauge("headroom_sample_duration_seconds", "Wall time of the last sample.", s.durationSeconds());
    f.gauge("headroom_last_sample_timestamp_seconds", "Unix time of the last complete sample.", s.wallMillis() / 1000.0);
    for (Map.Entry<String, SourceHealth> e : s.sources().entrySet()) {
      f.gauge("headroom_source_up", "1 when the last read of the source worked.", e.getValue().up() ? 1 : 0, "source", e.getKey());
    }
    for (Map.Entry<String, SourceHealth> e : s.sources().entrySet()) {
      f.counter("headroom_source_errors", "Failed reads per source.", e.getValue().errors(), "source", e.getKey());
    }
  }
}
