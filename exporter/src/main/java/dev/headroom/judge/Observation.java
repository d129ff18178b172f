package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import dev.headroom.sample.PerDirection;
import java.util.Arrays;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Everything the judge needs from one sample of the peer. Unknown values are {@code NaN} (underlay MTU: 0).
 * Rates are bytes per second; ratios are 0..1; CPU is in cores.
 *
 * <p>Usage:
 * <pre>{@code
 * Observation o = Observation.builder(Datapath.KERNEL, 16)
 *     .tunnelMtu(1280).underlayMtu(1500).lineRate(1.25e9)
 *     .throughput(2.0e9, 0.4e9).underlayUtilization(0.85, 0.2)
 *     .coreBusy(busyPerOnlineCore).datapathCpuCores(11.5)
 *     .build();
 * }</pre>
 *
 * @param onlineCores             online cores; 0 when unknown
 * @param tunnelMtu               tunnel MTU in bytes (NetBird default 1280)
 * @param underlayMtu             underlay MTU in bytes; 0 when unknown
 * @param lineRateBytesPerSecond  underlay NIC line rate; NaN when unknown
 * @param throughput              tunnel rate per direction: download is tunnel TX (users pull, the peer
 *                                encrypts), upload tunnel RX (users push, the peer decrypts)
 * @param underlayUtilization     utilization of the underlay side that carries each direction (download leaves
 *                                by transmit, upload arrives by receive): throughput / line rate; NaN when unknown
 * @param coreBusy                busy ratio of each online core (a private copy; see {@link #coreBusy()})
 * @param datapathCpuCores        CPU the datapath used over the interval, in cores; NaN when unknown
 * @param datapathCpuLimitCores   cores the datapath process may use (affinity or cgroup quota); NaN when unknown
 * @param datapathAllowedBusy     mean busy ratio of the cores the datapath process may run on; NaN when unknown
 * @param hottestTunnel           rate of the busiest single tunnel per direction; NaN when unknown
 * @param cpuQuotaCores           the peer's CPU quota (cgroup {@code cpu.max}) in cores; NaN when there is none
 * @param flowCapBytesPerSecond   the underlay's single-flow cap ({@code --underlay.flow-cap}); NaN when none
 * @param jumboPath               the path carries jumbo frames end to end (the operator said so, or every active
 *                                tunnel's endpoint is a private address on a jumbo underlay)
 * @param packetRate              tunnel packets per second per direction; NaN when unknown
 * @param hottestTunnelRelayed    each direction's busiest tunnel goes through NetBird's relay
 */
public record Observation(
    Datapath datapath,
    int onlineCores,
    int tunnelMtu,
    int underlayMtu,
    double lineRateBytesPerSecond,
    PerDirection<Double> throughput,
    PerDirection<Double> underlayUtilization,
    double[] coreBusy,
    double datapathCpuCores,
    double datapathCpuLimitCores,
    double datapathAllowedBusy,
    PerDirection<Double> hottestTunnel,
    double cpuQuotaCores,
    double flowCapBytesPerSecond,
    boolean jumboPath,
    PerDirection<Double> packetRate,
    PerDirection<Boolean> hottestTunnelRelayed) {

  /** NetBird's default tunnel MTU. */
  public static final int DEFAULT_TUNNEL_MTU = 1280;

  public Observation {
    Objects.requireNonNull(datapath, "datapath");
    if (onlineCores < 0) {
      throw new IllegalArgumentException("onlineCores must be >= 0 (0 = unknown), got " + onlineCores);
    }
    if (tunnelMtu <= 0) {
      throw new IllegalArgumentException("tunnelMtu must be positive, got " + tunnelMtu);
    }
    if (underlayMtu < 0) {
      throw new IllegalArgumentException("underlayMtu must be >= 0 (0 = unknown), got " + underlayMtu);
    }
    requireRates("throughput", throughput);
    requireRate("lineRateBytesPerSecond", lineRateBytesPerSecond);
    requireRates("hottestTunnel", hottestTunnel);
    requireRate("datapathCpuCores", datapathCpuCores);
    requireRate("datapathCpuLimitCores", datapathCpuLimitCores);
    requireRate("cpuQuotaCores", cpuQuotaCores);
    requireRate("flowCapBytesPerSecond", flowCapBytesPerSecond);
    requireRates("packetRate", packetRate);
    Objects.requireNonNull(underlayUtilization, "underlayUtilization");
    Objects.requireNonNull(hottestTunnelRelayed, "hottestTunnelRelayed");
    coreBusy = coreBusy == null ? new double[0] : coreBusy.clone();
    for (double b : coreBusy) {
      if (Double.isNaN(b) || b < 0) {
        throw new IllegalArgumentException("coreBusy ratios must be >= 0, got " + Arrays.toString(coreBusy));
      }
    }
  }

  private static void requireRates(String name, PerDirection<Double> values) {
    for (Direction d : Direction.values()) {
      requireRate(name + " " + d.label(), values.get(d));
    }
  }

  private static void requireRate(String name, double value) {
    if (value < 0 || Double.isInfinite(value)) {
      throw new IllegalArgumentException(name + " must be a finite number >= 0 or NaN, got " + value);
    }
  }

  /** Starts an observation; everything not set is unknown (NaN), zero traffic, MTU 1280. */
  public static Builder builder(Datapath datapath, int onlineCores) {
    return new Builder(datapath, onlineCores);
  }

  /** A copy of the per-core busy ratios. */
  @Override
  public double[] coreBusy() {
    return coreBusy.clone();
  }

  /** Tunnel throughput in a direction, bytes/s; NaN when the sampler could not measure it. */
  public double throughput(Direction d) {
    return throughput.get(d);
  }

  /** Tunnel packets per second in a direction; NaN when unknown. */
  public double packetRate(Direction d) {
    return packetRate.get(d);
  }

  /** The mean size of the packets a direction carried, bytes; NaN when unknown or none moved. */
  public double meanPacketBytes(Direction d) {
    double p = packetRate(d);
    return p > 0 && !Double.isNaN(throughput(d)) ? throughput(d) / p : Double.NaN;
  }

  /**
   * The packet size a direction's ceiling is read at: the mean size it carries, when it carries at least
   * {@link PacketSize#COMPANION_SHARE} of the tunnel's bytes; else (idle, unknown, or only the other direction's
   * ACKs) full packets of the tunnel MTU, as bulk traffic would send. Never above the tunnel MTU.
   */
  public double carriedPacketBytes(Direction d) {
    double mean = meanPacketBytes(d);
    double total = totalThroughput();
    if (Double.isNaN(mean) || !(total > 0) || throughput(d) / total < PacketSize.COMPANION_SHARE) {
      return tunnelMtu;
    }
    return Math.max(PacketSize.MIN_PACKET_BYTES, Math.min(tunnelMtu, mean));
  }

  /** Utilization of the underlay side that carries a direction: download leaves by transmit, upload arrives by receive. */
  public double underlayUtilization(Direction d) {
    return underlayUtilization.get(d);
  }

  /** Rate of the busiest single tunnel in a direction, NaN when unknown. */
  public double hottestTunnel(Direction d) {
    return hottestTunnel.get(d);
  }

  /** The busiest tunnel of a direction goes through NetBird's relay. */
  public boolean hottestTunnelRelayed(Direction d) {
    return hottestTunnelRelayed.get(d);
  }

  public OptionalDouble lineRate() {
    return lineRateBytesPerSecond > 0 ? OptionalDouble.of(lineRateBytesPerSecond) : OptionalDouble.empty();
  }

  /** Busy cores in all: the sum of the busy ratios, NaN when no core was measured. */
  public double totalBusyCores() {
    return totalBusy(coreBusy);
  }

  /** Busy ratio of the busiest core, NaN when no core was measured. */
  public double hottestBusy() {
    return hottest(coreBusy);
  }

  /** Mean busy ratio of all cores but the busiest, NaN with fewer than two cores. */
  public double meanBusyOfOthers() {
    return othersMean(coreBusy);
  }

  // The same figures of a profile step's cores (ProfileSession.Interval).
  static double totalBusy(double[] busy) {
    return busy.length == 0 ? Double.NaN : Arrays.stream(busy).sum();
  }

  static double hottest(double[] busy) {
    return Arrays.stream(busy).max().orElse(Double.NaN);
  }

  static double othersMean(double[] busy) {
    if (busy.length < 2) {
      return Double.NaN;
    }
    double[] sorted = busy.clone();
    Arrays.sort(sorted);
    return Arrays.stream(sorted, 0, sorted.length - 1).average().orElse(Double.NaN);
  }

  public double totalThroughput() {
    return throughput.download() + throughput.upload();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Observation x
        && datapath == x.datapath && onlineCores == x.onlineCores && tunnelMtu == x.tunnelMtu
        && underlayMtu == x.underlayMtu
        && Double.compare(lineRateBytesPerSecond, x.lineRateBytesPerSecond) == 0
        && throughput.equals(x.throughput) && underlayUtilization.equals(x.underlayUtilization)
        && Arrays.equals(coreBusy, x.coreBusy)
        && Double.compare(datapathCpuCores, x.datapathCpuCores) == 0
        && Double.compare(datapathCpuLimitCores, x.datapathCpuLimitCores) == 0
        && Double.compare(datapathAllowedBusy, x.datapathAllowedBusy) == 0
        && hottestTunnel.equals(x.hottestTunnel)
        && Double.compare(cpuQuotaCores, x.cpuQuotaCores) == 0
        && Double.compare(flowCapBytesPerSecond, x.flowCapBytesPerSecond) == 0
        && jumboPath == x.jumboPath
        && packetRate.equals(x.packetRate) && hottestTunnelRelayed.equals(x.hottestTunnelRelayed);
  }

  @Override
  public int hashCode() {
    return Objects.hash(datapath, onlineCores, tunnelMtu, underlayMtu, lineRateBytesPerSecond, throughput,
        underlayUtilization, Arrays.hashCode(coreBusy), datapathCpuCores, datapathCpuLimitCores, datapathAllowedBusy,
        hottestTunnel, cpuQuotaCores, flowCapBytesPerSecond, jumboPath, packetRate, hottestTunnelRelayed);
  }

  @Override
  public String toString() {
    return "Observation[" + datapath.label() + ", cores=" + onlineCores + ", mtu=" + tunnelMtu + "/" + underlayMtu
        + ", lineRate=" + lineRateBytesPerSecond + ", down=" + throughput.download() + ", up=" + throughput.upload()
        + ", util tx/rx=" + underlayUtilization.download() + "/" + underlayUtilization.upload()
        + ", busy=" + Arrays.toString(coreBusy) + ", datapathCpu=" + datapathCpuCores + "/" + datapathCpuLimitCores
        + ", allowedBusy=" + datapathAllowedBusy
        + ", hottest=" + hottestTunnel.download() + "/" + hottestTunnel.upload()
        + ", quota=" + cpuQuotaCores + ", flowCap=" + flowCapBytesPerSecond + ", jumboPath=" + jumboPath + ", packets=" + packetRate.download() + "/" + packetRate.upload()
        + ", hottestRelayed=" + hottestTunnelRelayed.download() + "/" + hottestTunnelRelayed.upload() + "]";
  }

  /** Builds an {@link Observation}; not thread-safe, use one per sample. */
  public static final class Builder {
    private final Datapath datapath;
    private final int onlineCores;
    private int tunnelMtu = DEFAULT_TUNNEL_MTU;
    private int underlayMtu;
    private double lineRate = Double.NaN;
    private double download;
    private double upload;
    private double txUtil = Double.NaN;
    private double rxUtil = Double.NaN;
    private double[] coreBusy = new double[0];
    private double datapathCpu = Double.NaN;
    private double datapathCpuLimit = Double.NaN;
    private double allowedBusy = Double.NaN;
    private double hottestDown = Double.NaN;
    private double hottestUp = Double.NaN;
    private double cpuQuota = Double.NaN;
    private double flowCap = Double.NaN;
    private boolean jumboPath;
    private double downPackets = Double.NaN;
    private double upPackets = Double.NaN;
    private boolean hottestDownRelayed;
    private boolean hottestUpRelayed;

    private Builder(Datapath datapath, int onlineCores) {
      this.datapath = datapath;
      this.onlineCores = onlineCores;
    }

    public Builder tunnelMtu(int v) { tunnelMtu = v; return this; }
    public Builder underlayMtu(int v) { underlayMtu = v; return this; }
    /** Underlay line rate in bytes/s; NaN when unknown. */
    public Builder lineRate(double bytesPerSecond) { lineRate = bytesPerSecond; return this; }
    public Builder throughput(double down, double up) { download = down; upload = up; return this; }
    public Builder underlayUtilization(double tx, double rx) { txUtil = tx; rxUtil = rx; return this; }
    /** Busy ratio per online core; copied on build. */
    public Builder coreBusy(double... v) { coreBusy = v; return this; }
    public Builder datapathCpuCores(double v) { datapathCpu = v; return this; }
    public Builder datapathCpuLimitCores(double v) { datapathCpuLimit = v; return this; }
    /** Mean busy ratio of the cores the datapath process may run on (its affinity). */
    public Builder datapathAllowedBusy(double v) { allowedBusy = v; return this; }
    public Builder hottestTunnel(double down, double up) { hottestDown = down; hottestUp = up; return this; }
    /** Whether each direction's busiest tunnel goes through NetBird's relay. */
    public Builder hottestRelayed(boolean down, boolean up) { hottestDownRelayed = down; hottestUpRelayed = up; return this; }

    /** The peer's CPU quota in cores (cgroup {@code cpu.max}); NaN for none. */
    public Builder cpuQuotaCores(double v) { cpuQuota = v; return this; }
    /** The underlay's single-flow cap in bytes/s; NaN for none. */
    public Builder flowCap(double bytesPerSecond) { flowCap = bytesPerSecond; return this; }
    /** The path carries jumbo frames end to end. */
    public Builder jumboPath(boolean v) { jumboPath = v; return this; }
    /** Tunnel packets per second per direction; NaN when unknown. */
    public Builder packets(double down, double up) { downPackets = down; upPackets = up; return this; }

    public Observation build() {
      return new Observation(datapath, onlineCores, tunnelMtu, underlayMtu, lineRate,
          new PerDirection<>(download, upload), new PerDirection<>(txUtil, rxUtil), coreBusy, datapathCpu,
          datapathCpuLimit, allowedBusy, new PerDirection<>(hottestDown, hottestUp), cpuQuota, flowCap, jumboPath,
          new PerDirection<>(downPackets, upPackets), new PerDirection<>(hottestDownRelayed, hottestUpRelayed));
    }
  }
}
