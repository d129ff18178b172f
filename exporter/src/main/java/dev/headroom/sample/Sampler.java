package dev.headroom.sample;

import dev.headroom.config.Config;
import dev.headroom.read.CpuSource;
import dev.headroom.read.Datapath;
import dev.headroom.read.DatapathCpuReader;
import dev.headroom.read.NetInterfaceReader;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sampling pass: asks each source's collector (underlay, tunnel, CPU, datapath CPU, census, CPU quota, and
 * NetBird's status when the tunnel has no interface: the netstack datapath) for its
 * state, derives what spans sources (peaks, CPU per gigabyte), and returns an immutable {@link Sample}. Not
 * thread-safe by design: the sampling thread is its only caller and the only reader of the system. A
 * failing source is logged once, counted, its rates left unknown, and the rest still sampled.
 *
 * <p>Usage: {@code Sampler s = new Sampler(config, CpuSource.forRoots(sys, proc), System::nanoTime, System::currentTimeMillis, censusThread, null); Sample x = s.sample();}
 */
public final class Sampler {
  private static final Logger log = LoggerFactory.getLogger(Sampler.class);
  static final String TUNNEL = "tunnel";
  /** Below this many tunnel bytes in an interval, CPU per gigabyte is noise divided by noise. */
  static final long MIN_BYTES_FOR_CPU_PER_GB = 1_000_000;
  /** The default route, and a datapath not found yet (or kernel workers), are looked for again this often. */
  private static final long REDISCOVER_NANOS = 10_000_000_000L;

  private final LongSupplier nanoClock;
  private final LongSupplier wallClock;
  private final UnderlayCollector underlay;
  private final String tunnelInterface;
  private final InterfaceCollector tunnel;
  private final CpuCollector cpu;
  private final DatapathCpuCollector datapathCpu;
  /** Null when the census is off. */
  private final CensusCollector census;
  /** Null when no cgroup root is set. */
  private final CpuQuotaCollector quota;
  /** Null when NetBird's status is not asked for tunnel bytes (no netstack datapath can be seen). */
  private final NetstackCollector netstack;
  private final double intervalSeconds;
  /**
   * One slot per source, fixed at construction (the census and the quota are on or off for the sampler's life);
   * refilled each pass and copied by {@code Map.ofEntries}, so a pass allocates the map and its entries only.
   */
  private final Map.Entry<String, SourceHealth>[] health;

  private final PeakWindow peakDown;
  private final PeakWindow peakUp;
  private long sequence;
  private long prevStart;
  private long netstackAnswersSeen;

  /**
   * The census runs on {@code censusExecutor}: the daemon gives it a thread of its own, so a census that
   * takes seconds never delays a sample (see {@link CensusCollector}). NetBird's netstack datapath is looked for
   * through {@code netstack} (null: never), whose status calls run on the collector's own executor.
   */
  public Sampler(Config config, CpuSource cpu, LongSupplier nanoClock, LongSupplier wallClock,
      java.util.concurrent.Executor censusExecutor, NetstackCollector netstack) {
    this.netstack = netstack;
    this.intervalSeconds = config.sampling().interval().toNanos() / 1e9;
    this.nanoClock = nanoClock;
    this.wallClock = wallClock;
    NetInterfaceReader net = new NetInterfaceReader(config.paths().sysfs());
    this.underlay = new UnderlayCollector(config, net, REDISCOVER_NANOS);
    this.tunnelInterface = config.sampling().tunnelInterface();
    this.tunnel = new InterfaceCollector(TUNNEL, net, tunnelInterface, intervalSeconds);
    this.cpu = new CpuCollector(cpu);
    this.datapathCpu = new DatapathCpuCollector(new DatapathCpuReader(
        config.paths().procfs(), config.sampling().tunnelInterface(), config.sampling().datapathProcesses(), REDISCOVER_NANOS));
    this.census = config.sampling().censusInterval().isZero() ? null : new CensusCollector(config, censusExecutor);
    this.quota = config.paths().cgroupfs().map(CpuQuotaCollector::new).orElse(null);
    @SuppressWarnings("unchecked")
    Map.Entry<String, SourceHealth>[] slots = new Map.Entry[4 + (census == null ? 0 : 1) + (quota == null ? 0 : 1)
        + (netstack == null ? 0 : 1)];
    this.health = slots;
    this.peakDown = new PeakWindow(config.sampling().peakSamples());
    this.peakUp = new PeakWindow(config.sampling().peakSamples());
  }

  public Sample sample() {
    long start = nanoClock.getAsLong();
    long wall = wallClock.getAsLong();
    boolean complete = sequence > 0;

    // The underlay first: its line rate bounds what the tunnel could have carried.
    UnderlayState u = underlay.collect(start);
    double maxBytesPerSecond = InterfaceTracker.maxBytesPerSecond(u.lineRateBytesPerSecond());
    LinkState t = tunnel.collect(tunnelInterface, start, maxBytesPerSecond);
    if (t.restarted()) {
      log.info("tunnel {} restarted (restart #{}); rates continue from its new counters",
          tunnelInterface, t.traffic().restarts());
    }
    CpuState c = cpu.collect();
    NetstackState ns = netstack == null ? null : netstack.collect(t.reading().present(), start, maxBytesPerSecond);
    Datapath datapath = t.reading().datapath();
    if (datapath == Datapath.ABSENT && ns != null && ns.netstack()) {
      datapath = Datapath.NETSTACK;
    }
    boolean viaNetbird = datapath == Datapath.NETSTACK;
    double passSeconds = complete ? (start - prevStart) / 1e9 : 0;
    DatapathState d = datapathCpu.collect(datapath, start, c, t.restarted());
    if (census != null && viaNetbird && ns.answers() != netstackAnswersSeen) {
      // Netstack: the census reads the tunnels NetBird just listed, at the time NetBird read them.
      netstackAnswersSeen = ns.answers();
      census.offer(ns.status(), ns.answerAtNanos(), wall - (start - ns.answerAtNanos()) / 1_000_000);
    }
    CensusState cs = census == null ? null : census.collect(datapath, start, wall, t.restarted(),
        netstack == null ? null : netstack.lastStatus());
    CpuQuotaState q = quota == null ? null : quota.collect(start);

    // In netstack mode the tunnel's bytes are NetBird's per-peer counters, at its status interval's resolution.
    Traffic tt = viaNetbird ? ns.traffic() : t.traffic();
    if (ns != null && !(viaNetbird ? t.traffic() : ns.traffic()).empty()) {
      tt = Traffic.combined(tt, viaNetbird ? t.traffic() : ns.traffic());
    }
    double down = tt.rate(InterfaceTracker.TX_BYTES);
    double up = tt.rate(InterfaceTracker.RX_BYTES);
    peakDown.add(down);
    peakUp.add(up);

    int n = 0;
    health[n++] = Map.entry(TUNNEL, t.health());
    health[n++] = Map.entry(UnderlayCollector.SOURCE, u.link().health());
    health[n++] = Map.entry(CpuCollector.SOURCE, c.health());
    health[n++] = Map.entry(DatapathCpuCollector.SOURCE, d.health());
    if (cs != null) {
      health[n++] = Map.entry(CensusCollector.SOURCE, cs.health());
    }
    if (q != null) {
      health[n++] = Map.entry(CpuQuotaCollector.SOURCE, q.health());
    }
    if (ns != null) {
      health[n++] = Map.entry(NetstackCollector.SOURCE, ns.health());
    }
    prevStart = start;
    double duration = (nanoClock.getAsLong() - start) / 1e9;
    return new Sample(
        ++sequence, wall, start, duration, complete,
        t.reading(), tt, new PerDirection<>(peakDown.max(), peakUp.max()),
        u.link().reading(), u.link().traffic(), u.lineRateBytesPerSecond(), u.lineRateSource(),
        viaNetbird ? ns.resolutionSeconds() : intervalSeconds,
        c.cores(), cpuPerGigabyte(tt, viaNetbird ? passSeconds : t.traffic().intervalSeconds(), c),
        datapath, d.cpuSeconds(), d.cores(), d.allowedCpus(), d.allowedBusy(), d.description(),
        q == null ? Double.NaN : q.cores(), cs == null ? null : cs.snapshot(), cs == null ? null : cs.totals(),
        Map.ofEntries(health));
  }

  /** Null when the tunnel moved too little to divide by, or either side is unknown. */
  private static CpuPerGigabyte cpuPerGigabyte(Traffic tt, double cpuIntervalSeconds, CpuState c) {
    // Bytes over the CPU's interval (this sample's), not the rate's: NetBird's rates span several samples.
    double bytes = (tt.rate(InterfaceTracker.TX_BYTES) + tt.rate(InterfaceTracker.RX_BYTES)) * cpuIntervalSeconds;
    if (!(bytes >= MIN_BYTES_FOR_CPU_PER_GB) || c.deltaTotalMillis() <= 0) {
      return null;
    }
    return CpuPerGigabyte.of(c.deltaUserMillis() / 1000.0, c.deltaSystemMillis() / 1000.0,
        c.deltaSoftirqMillis() / 1000.0, bytes);
  }
}
