package dev.headroom.sample;

import dev.headroom.read.CpuReading;
import dev.headroom.read.CpuSource;
import dev.headroom.read.Datapath;
import dev.headroom.read.DatapathCpuReader;
import dev.headroom.read.DefaultRoute;
import dev.headroom.read.InterfaceReading;
import dev.headroom.read.NetInterfaceReader;
import dev.headroom.read.ReadException;
import dev.headroom.read.wg.TunnelPeersReader;
import dev.headroom.sample.census.CensusConfig;
import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.CensusTotals;
import dev.headroom.sample.census.TunnelCensus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sampling pass: reads every source, derives rates from a monotonic clock, returns an immutable
 * {@link Sample}. Not thread-safe by design: the sampling thread is its only caller and the only reader of
 * the system. A failing source is logged once per distinct error, counted, and the rest still sampled.
 *
 * <p>Usage: {@code Sampler s = new Sampler(settings, CpuSource.forRoots(sys, proc), System::nanoTime); Sample x = s.sample();}
 */
public final class Sampler {
  static final String TUNNEL = "tunnel";
  static final String UNDERLAY = "underlay";
  static final String CPU = "cpu";
  static final String DATAPATH = "datapath";
  static final String CENSUS = "census";
  /** Below this many tunnel bytes in an interval, CPU per gigabyte is noise divided by noise. */
  static final long MIN_BYTES_FOR_CPU_PER_GB = 1_000_000;
  /** The default route, and a datapath not found yet (or kernel workers), are looked for again this often. */
  private static final long REDISCOVER_NANOS = 10_000_000_000L;
  private static final Logger log = LoggerFactory.getLogger(Sampler.class);

  private final SamplerSettings settings;
  private final NetInterfaceReader net;
  private final CpuSource cpu;
  private final DatapathCpuReader datapathCpu;
  private final LongSupplier nanoClock;
  private final LongSupplier wallClock;

  private final InterfaceTracker tunnel = new InterfaceTracker();
  private final InterfaceTracker underlay = new InterfaceTracker();
  private final CoreTracker cores = new CoreTracker();
  private final PeakWindow peakDown;
  private final PeakWindow peakUp;
  private final ScrapePeak scrapePeakDown = new ScrapePeak();
  private final ScrapePeak scrapePeakUp = new ScrapePeak();
  private final Map<String, long[]> errors = new LinkedHashMap<>();
  private final Map<String, String> lastErrors = new LinkedHashMap<>();
  private final java.util.Set<String> failing = new java.util.HashSet<>();

  private long sequence;
  private String underlayName;
  private long underlayResolvedAt;
  private InterfaceReading lastTunnel;
  private InterfaceReading lastUnderlay;
  private List<Core> lastCores = List.of();
  private long prevDatapathMillis = -1;
  private List<Integer> prevDatapathPids = List.of();
  private long datapathMillisTotal;
  private long prevDatapathNanos;
  private boolean hadBaseline;
  private final TunnelPeersReader tunnelPeers;
  private final TunnelCensus census = new TunnelCensus(CensusConfig.defaults());
  private final CensusTotals censusTotals = new CensusTotals();
  private CensusSnapshot lastCensus;
  private CensusTotals lastCensusTotals;
  private long censusAt;

  public Sampler(SamplerSettings settings, CpuSource cpu, LongSupplier nanoClock) {
    this(settings, cpu, nanoClock, System::currentTimeMillis);
  }

  /** With an explicit wall clock, so tests get the same timestamps every run. */
  public Sampler(SamplerSettings settings, CpuSource cpu, LongSupplier nanoClock, LongSupplier wallClock) {
    this.settings = settings;
    this.wallClock = wallClock;
    this.net = new NetInterfaceReader(settings.sysfs(), nanoClock);
    this.cpu = cpu;
    this.nanoClock = nanoClock;
    this.datapathCpu = new DatapathCpuReader(
        settings.procfs(), settings.tunnelInterface(), settings.datapathProcesses(), REDISCOVER_NANOS);
    this.peakDown = new PeakWindow(settings.peakSamples());
    this.peakUp = new PeakWindow(settings.peakSamples());
    for (String s : List.of(TUNNEL, UNDERLAY, CPU, DATAPATH)) {
      errors.put(s, new long[1]);
    }
    if (!settings.censusInterval().isZero()) {
      errors.put(CENSUS, new long[1]);
    }
    this.tunnelPeers = new TunnelPeersReader(settings.runDir(), "wg");
    this.lastTunnel = InterfaceReading.absent(settings.tunnelInterface());
    this.lastUnderlay = InterfaceReading.absent(settings.underlayInterface().orElse("?"));
  }

  /** Peaks since the last scrape, per direction; the serving layer takes them. */
  public ScrapePeak scrapePeak(Direction d) {
    return d == Direction.DOWNLOAD ? scrapePeakDown : scrapePeakUp;
  }

  public Sample sample() {
    long start = nanoClock.getAsLong();
    long wall = wallClock.getAsLong();
    Map<String, Boolean> up = new LinkedHashMap<>();

    // Tunnel.
    boolean restarted = false;
    try {
      InterfaceReading t = net.read(settings.tunnelInterface());
      restarted = tunnel.update(t, start);
      lastTunnel = t;
      up.put(TUNNEL, true);
    } catch (ReadException e) {
      fail(TUNNEL, e, up);
    }
    if (restarted) {
      datapathCpu.invalidate();
      log.info("tunnel {} was recreated (restart #{}); rates continue from its new counters",
          settings.tunnelInterface(), tunnel.restarts());
    }

    // Underlay.
    try {
      String name = resolveUnderlay(start);
      InterfaceReading u = name == null ? InterfaceReading.absent("none") : net.read(name);
      underlay.update(u, start);
      lastUnderlay = u;
      up.put(UNDERLAY, name != null);
      if (name == null) {
        fail(UNDERLAY, new ReadException("no underlay: no default route and --underlay.interface not set"), up);
      }
    } catch (ReadException e) {
      fail(UNDERLAY, e, up);
    }

    // CPU.
    try {
      CpuReading r = cpu.read();
      lastCores = cores.update(r);
      up.put(CPU, true);
    } catch (ReadException e) {
      fail(CPU, e, up);
    }

    // Datapath CPU.
    Datapath datapath = lastTunnel.datapath();
    double datapathCores = Double.NaN;
    String datapathDescription = "unknown";
    int allowedCpus = 0;
    double allowedBusy = Double.NaN;
    try {
      DatapathCpuReader.DatapathCpu d = datapathCpu.read(datapath, start);
      long ms = d.cpuMillis();
      double dt = (start - prevDatapathNanos) / 1e9;
      long delta = 0;
      if (prevDatapathMillis >= 0 && d.pids().equals(prevDatapathPids) && ms >= prevDatapathMillis) {
        delta = ms - prevDatapathMillis;
      }
      if (datapath == Datapath.KERNEL) {
        delta += cores.deltaSoftirqMillis(); // kernel crypto and receive also run in softirq context
      }
      datapathMillisTotal += delta;
      datapathCores = dt > 0 && prevDatapathMillis >= 0 ? delta / 1000.0 / dt : 0;
      if (datapath == Datapath.USERSPACE && d.pids().isEmpty()) {
        datapathCores = Double.NaN;
      }
      prevDatapathMillis = ms;
      prevDatapathPids = d.pids();
      prevDatapathNanos = start;
      datapathDescription = d.description();
      allowedCpus = d.allowedCpus().size();
      allowedBusy = meanBusy(lastCores, d.allowedCpus());
      up.put(DATAPATH, true);
    } catch (ReadException e) {
      fail(DATAPATH, e, up);
    }

    // Census of every tunnel: less often than the rest, since a peer can hold thousands of them.
    if (!settings.censusInterval().isZero()
        && (censusAt == 0 || start - censusAt >= censusDueNanos() || restarted)) {
      censusAt = start;
      if (datapath == Datapath.ABSENT) {
        lastCensus = null;
        up.put(CENSUS, true);
      } else {
        try {
          CensusSnapshot c = census.update(start, wall / 1000, tunnelPeers.read(datapath, settings.tunnelInterface()));
          censusTotals.add(c);
          lastCensus = c;
          lastCensusTotals = censusTotals.copy();
          up.put(CENSUS, true);
        } catch (ReadException e) {
          lastCensus = null;
          fail(CENSUS, e, up);
        }
      }
    } else if (errors.containsKey(CENSUS)) {
      up.put(CENSUS, !failing.contains(CENSUS));
    }

    Traffic tt = tunnel.snapshot();
    double down = tt.rate(InterfaceTracker.TX_BYTES);
    double upRate = tt.rate(InterfaceTracker.RX_BYTES);
    peakDown.add(down);
    peakUp.add(upRate);
    scrapePeakDown.offer(down);
    scrapePeakUp.offer(upRate);

    CpuPerGigabyte perGb = null;
    long bytes = tunnel.lastDelta(InterfaceTracker.TX_BYTES) + tunnel.lastDelta(InterfaceTracker.RX_BYTES);
    if (bytes >= MIN_BYTES_FOR_CPU_PER_GB && cores.deltaTotalMillis() > 0) {
      double gb = bytes / 1e9;
      perGb = new CpuPerGigabyte(
          cores.deltaUserMillis() / 1000.0 / gb,
          cores.deltaSystemMillis() / 1000.0 / gb,
          cores.deltaSoftirqMillis() / 1000.0 / gb);
    }

    double lineRate = settings.lineRateBytesPerSecond().orElse(Double.NaN);
    String lineRateSource = "config";
    if (settings.lineRateBytesPerSecond().isEmpty()) {
      if (lastUnderlay.speedMbps().isPresent()) {
        lineRate = lastUnderlay.speedMbps().getAsLong() * 1e6 / 8;
        lineRateSource = "sysfs";
      } else {
        lineRateSource = "none";
      }
    }

    for (Map.Entry<String, Boolean> e : up.entrySet()) {
      if (e.getValue() && failing.remove(e.getKey())) {
        log.info("{} reads again", e.getKey());
      }
    }
    boolean complete = hadBaseline;
    hadBaseline = true;
    Map<String, SourceHealth> health = new LinkedHashMap<>();
    for (Map.Entry<String, long[]> e : errors.entrySet()) {
      health.put(e.getKey(), new SourceHealth(
          up.getOrDefault(e.getKey(), false), e.getValue()[0], lastErrors.getOrDefault(e.getKey(), "")));
    }
    double duration = (nanoClock.getAsLong() - start) / 1e9;
    return new Sample(
        ++sequence, wall, start, duration, complete,
        lastTunnel, tt, peakDown.max(), peakUp.max(),
        lastUnderlay, underlay.snapshot(), lineRate, lineRateSource,
        lastCores, perGb,
        datapath, datapathMillisTotal / 1000.0, datapathCores, allowedCpus, allowedBusy, datapathDescription,
        lastCensus, lastCensusTotals, health);
  }

  /**
   * A census is due when its interval has nearly passed: samples start with some jitter, and without the
   * slack a census every interval would skip every few samples when both intervals are equal.
   */
  private long censusDueNanos() {
    return settings.censusInterval().toNanos() - settings.interval().toNanos() / 2;
  }

  /** Mean busy of the online cores among {@code ids}; NaN when none of them is online. */
  private static double meanBusy(List<Core> cores, java.util.Set<Integer> ids) {
    double sum = 0;
    int n = 0;
    for (Core c : cores) {
      if (c.online() && ids.contains(c.cpu())) {
        sum += c.busy();
        n++;
      }
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  private String resolveUnderlay(long now) throws ReadException {
    if (settings.underlayInterface().isPresent()) {
      return settings.underlayInterface().get();
    }
    if (underlayName == null || now - underlayResolvedAt >= REDISCOVER_NANOS) {
      Optional<String> found = DefaultRoute.find(settings.procfs())
          .filter(n -> !n.equals(settings.tunnelInterface()));
      String name = found.orElse(null);
      if (underlayName != null && !underlayName.equals(name)) {
        log.info("default route moved from {} to {}", underlayName, name);
      }
      underlayName = name;
      underlayResolvedAt = now;
    }
    return underlayName;
  }

  private void fail(String source, ReadException e, Map<String, Boolean> up) {
    up.put(source, false);
    errors.get(source)[0]++;
    String msg = e.getMessage();
    // Log a failure once, not once a second: again only when it changes or after the source recovered.
    if (failing.add(source) || !msg.equals(lastErrors.get(source))) {
      log.warn("{} read failed (still sampling the rest): {}", source, msg);
    }
    lastErrors.put(source, msg);
  }
}
