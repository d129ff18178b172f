package dev.headroom.sample;

import dev.headroom.read.Datapath;
import dev.headroom.read.InterfaceReading;
import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.CensusTotals;
import java.util.List;
import java.util.Map;

/**
 * Everything one sampling pass learned, immutable, published for scrapes and the judge.
 *
 * <p>Usage: {@code double downloadBps = sample.throughput(Direction.DOWNLOAD);}
 *
 * @param complete the pass had a baseline before it, so its rates are real
 * @param lineRateBytesPerSecond underlay line rate in use, NaN when unknown
 * @param lineRateSource {@code config}, {@code sysfs} or {@code none}
 * @param tunnelResolutionSeconds how often the tunnel's counters are read: the sampling interval for an
 *     interface, NetBird's status interval in netstack mode; rates and peaks have this resolution
 * @param cpuPerGigabyte null when the tunnel moved too little to divide by
 * @param datapathCores CPU of the datapath in the last interval, in cores (NaN when unknown)
 * @param census the latest tunnel census, null when none was taken (no tunnel, census off or failing)
 * @param censusTotals cumulative per-tunnel rate observations, null before the first census
 * @param datapathAllowedCpus cores the userspace datapath may run on, 0 when unknown
 * @param datapathAllowedBusy mean busy ratio of those cores, NaN when unknown
 * @param cpuQuotaCores the cgroup CPU quota ({@code cpu.max}) in cores, NaN for none, unread or not asked for
 */
public record Sample(
    long sequence,
    long wallMillis,
    long monotonicNanos,
    double durationSeconds,
    boolean complete,
    InterfaceReading tunnel,
    Traffic tunnelTraffic,
    PerDirection<Double> peak,
    InterfaceReading underlay,
    Traffic underlayTraffic,
    double lineRateBytesPerSecond,
    String lineRateSource,
    double tunnelResolutionSeconds,
    List<Core> cores,
    CpuPerGigabyte cpuPerGigabyte,
    Datapath datapath,
    double datapathCpuSeconds,
    double datapathCores,
    int datapathAllowedCpus,
    double datapathAllowedBusy,
    String datapathDescription,
    double cpuQuotaCores,
    CensusSnapshot census,
    CensusTotals censusTotals,
    Map<String, SourceHealth> sources) {
  /** The counters that carry each direction on an interface: download leaves by transmit, upload arrives by receive. */
  private static final PerDirection<Integer> BYTES =
      new PerDirection<>(InterfaceTracker.TX_BYTES, InterfaceTracker.RX_BYTES);
  private static final PerDirection<Integer> PACKETS =
      new PerDirection<>(InterfaceTracker.TX_PACKETS, InterfaceTracker.RX_PACKETS);

  /**
   * Tunnel bytes per second: download is what the tunnel transmits, upload what it receives. NaN when
   * unknown: the tunnel could not be read, or its counter lied (see {@link InterfaceTracker}).
   */
  public double throughput(Direction d) {
    return tunnelTraffic.rate(BYTES.get(d));
  }

  public double packetRate(Direction d) {
    return tunnelTraffic.rate(PACKETS.get(d));
  }

  public double meanPacketSize(Direction d) {
    return tunnelTraffic.meanPacketSize(BYTES.get(d), PACKETS.get(d));
  }

  public double peak(Direction d) {
    return peak.get(d);
  }

  /** Underlay utilization of the side that limits a direction: download leaves by transmit. */
  public double underlayUtilization(Direction d) {
    if (!(lineRateBytesPerSecond > 0) || !underlay.present()) {
      return Double.NaN;
    }
    return underlayTraffic.rate(BYTES.get(d)) / lineRateBytesPerSecond;
  }

  public int onlineCores() {
    return (int) cores.stream().filter(Core::online).count();
  }

  /** The busiest online core, or null when no core was read. */
  public Core hottestCore() {
    Core best = null;
    for (Core c : cores) {
      if (c.online() && (best == null || c.busy() > best.busy())) {
        best = c;
      }
    }
    return best;
  }

  public int saturatedCores(double threshold) {
    return (int) cores.stream().filter(c -> c.online() && c.busy() >= threshold).count();
  }

  /**
   * The tunnel exists and its counters were read in this pass; in netstack mode (no interface) NetBird's status
   * call answered.
   */
  public boolean tunnelUp() {
    if (datapath == Datapath.NETSTACK) {
      return sourceUp("netbird_status");
    }
    return tunnel.present() && sourceUp("tunnel");
  }

  /** A tunnel carries traffic here: an interface of the tunnel's name, or NetBird's netstack (which has none). */
  public boolean tunnelCarried() {
    return tunnel.present() || datapath == Datapath.NETSTACK;
  }

  /** The underlay NIC exists and its counters were read in this pass. */
  public boolean underlayUp() {
    return underlay.present() && sourceUp("underlay");
  }

  private boolean sourceUp(String name) {
    SourceHealth h = sources.get(name);
    return h == null || h.up();
  }

  public SourceHealth source(String name) {
    return sources.get(name);
  }
}
