package dev.headroom.bench;

import dev.headroom.read.CpuReading;
import dev.headroom.read.CpuSource;
import dev.headroom.config.Config;
import dev.headroom.config.ConfigException;
import dev.headroom.config.ConfigParser;
import dev.headroom.read.Datapath;
import dev.headroom.read.DatapathCpuReader;
import dev.headroom.read.InterfaceReading;
import dev.headroom.read.NetInterfaceReader;
import dev.headroom.read.OshiCpuSource;
import dev.headroom.read.CpuTimes;
import dev.headroom.read.ProcStat;
import dev.headroom.read.ProcStatCpuSource;
import dev.headroom.read.ReadException;
import dev.headroom.sample.Sample;
import dev.headroom.sample.Sampler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-sample path: one {@link Sampler#sample()} (read, parse, derive) over the kernel fixture tree and
 * over this machine's real /sys and /proc (OSHI for CPU, {@code lo} as the tunnel), plus the pure parsers.
 * Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the allocation per sample.
 *
 * <p>Usage: {@code exporter/src/bench/jmh.sh SampleBench -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// The service's JVM flags come from the command line (-jvmArgsAppend, see exporter/src/bench/jmh.sh), read
// from the packaged launcher, so the benchmarks and the service never drift apart.
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SampleBench {
  private Path tree;
  private Sampler fixture;
  private Path userspaceTree;
  private Sampler fixtureUserspace;
  private Sampler live;
  private byte[] fixtureStat;
  private byte[] liveStat;
  private Path statPath;
  private String counter;
  private Path counterPath;
  private NetInterfaceReader liveNet;
  private CpuSource oshi;
  private CpuSource liveProcStat;
  private DatapathCpuReader liveDiscovery;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    tree = Fixtures.copy("kernel");
    Path sys = tree.resolve("sys");
    Path proc = tree.resolve("proc");
    fixture = new Sampler(settings(sys, proc, "wt0", "--underlay.line-rate=10gbit"),
        new ProcStatCpuSource(sys, proc), System::nanoTime, System::currentTimeMillis, Runnable::run, null);
    fixture.sample(); // baseline, as the daemon's first tick
    // A userspace datapath (NetBird's usual mode): its process's stat and affinity are read every sample.
    userspaceTree = Fixtures.copy("userspace");
    fixtureUserspace = new Sampler(settings(userspaceTree.resolve("sys"), userspaceTree.resolve("proc"), "wt0",
        "--underlay.line-rate=10gbit"), new ProcStatCpuSource(userspaceTree.resolve("sys"), userspaceTree.resolve("proc")),
        System::nanoTime, System::currentTimeMillis, Runnable::run, null);
    fixtureUserspace.sample();
    // The real system, as the service samples it: OSHI for CPU, lo standing in for the tunnel.
    Path realSys = Path.of("/sys");
    Path realProc = Path.of("/proc");
    live = new Sampler(settings(realSys, realProc, "lo"),
        CpuSource.forRoots(realSys, realProc), System::nanoTime, System::currentTimeMillis, Runnable::run, null);
    live.sample();
    liveNet = new NetInterfaceReader(realSys);
    oshi = new OshiCpuSource(realSys);
    liveProcStat = new ProcStatCpuSource(realSys, realProc);
    // Rediscovery period 0: every read scans /proc, as the sampler does every 10 s while no datapath process
    // is found (or for kernel WireGuard's workers); its cost per sample is this over 10.
    liveDiscovery = new DatapathCpuReader(realProc, "lo", List.of("netbird", "wireguard-go"), 0);
    statPath = proc.resolve("stat");
    fixtureStat = Files.readAllBytes(statPath);
    liveStat = Files.readAllBytes(realProc.resolve("stat"));
    counterPath = sys.resolve("class/net/wt0/statistics/tx_bytes");
    counter = Files.readString(counterPath);
  }

  /** The daemon's defaults over {@code sys} and {@code proc}, without census or cgroup quota, plus {@code flags}. */
  static Config settings(Path sys, Path proc, String tunnel, String... flags) throws ConfigException {
    List<String> all = new ArrayList<>(List.of("--path.sysfs=" + sys, "--path.procfs=" + proc, "--path.cgroupfs=",
        "--census.interval=0s", "--tunnel.interface=" + tunnel));
    all.addAll(List.of(flags));
    return ConfigParser.parse(all.toArray(String[]::new)).config();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    Fixtures.delete(tree);
    Fixtures.delete(userspaceTree);
  }

  /** One sample of a kernel-WireGuard peer (4 cores) from the fixture tree, procfs CPU source. */
  @Benchmark
  public Sample sampleFixtureKernel() {
    return fixture.sample();
  }

  /**
   * One sample of a userspace-WireGuard peer from the fixture tree: as sampleFixtureKernel plus the datapath
   * process's stat and status. Fixture files are not procfs, so every read here opens its file.
   */
  @Benchmark
  public Sample sampleFixtureUserspace() {
    return fixtureUserspace.sample();
  }

  /** One sample of this machine as the service takes it (procfs CPU source, real sysfs and procfs). */
  @Benchmark
  public Sample sampleLive() {
    return live.sample();
  }

  /** Part of sampleLive: one interface (lo) from the real sysfs, 13 small files. */
  @Benchmark
  public InterfaceReading partReadInterfaceLive() throws ReadException {
    return liveNet.read("lo", System.nanoTime());
  }

  /** Part of sampleLive: per-core ticks through OSHI (the service's CPU source on real roots). */
  @Benchmark
  public CpuReading partCpuOshiLive() throws ReadException {
    return oshi.read();
  }

  /** The alternative CPU source on the same real /proc/stat: headroom's own parser. */
  @Benchmark
  public CpuReading partCpuProcStatLive() throws ReadException {
    return liveProcStat.read();
  }

  /** Part of sampleLive every 10 s: one scan of this machine's /proc for the datapath's process. */
  @Benchmark
  public DatapathCpuReader.DatapathCpu partDatapathDiscoveryLive() throws ReadException {
    return liveDiscovery.read(Datapath.USERSPACE, System.nanoTime());
  }

  @Benchmark
  public List<CpuTimes> parseCoresFixture4Cores() throws ReadException {
    return ProcStat.parseCores(fixtureStat, fixtureStat.length, statPath);
  }

  @Benchmark
  public List<CpuTimes> parseCoresLive() throws ReadException {
    return ProcStat.parseCores(liveStat, liveStat.length, statPath);
  }

  @Benchmark
  public long parseUnsigned() {
    return Long.parseUnsignedLong(counter.strip());
  }
}
