package dev.headroom.bench;

import dev.headroom.judge.CeilingSelector;
import dev.headroom.judge.Classifier;
import dev.headroom.judge.ConfigCeilings;
import dev.headroom.judge.CostModel;
import dev.headroom.judge.Judgement;
import dev.headroom.judge.Learned;
import dev.headroom.judge.Observation;
import dev.headroom.judge.Observations;
import dev.headroom.judge.Thresholds;
import dev.headroom.read.ProcStatCpuSource;
import dev.headroom.sample.Sample;
import dev.headroom.sample.Sampler;
import dev.headroom.config.Config;
import dev.headroom.serve.HeadroomMetrics;
import dev.headroom.serve.SamplerTiming;
import dev.headroom.serve.web.Refusals;
import dev.headroom.serve.Published;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import dev.headroom.cmd.ServeCommand;
import dev.headroom.serve.MetricsEndpoint;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * Serving one scrape: the registry with {@link HeadroomMetrics} (and, as the service has it, client_java's
 * JVM metrics) written through {@link PrometheusTextFormatWriter}, and through the service's
 * {@link MetricsEndpoint} (one render per snapshot), over a sample of the kernel fixture peer after one
 * second of traffic. The HTTP layer is not in here; compare.sh measures that whole.
 *
 * <p>Usage: {@code exporter/src/bench/jmh.sh ScrapeBench -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// The service's JVM flags come from the command line (-jvmArgsAppend, see exporter/src/bench/jmh.sh), read
// from the packaged launcher, so the benchmarks and the service never drift apart.
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ScrapeBench {
  private Path tree;
  private PrometheusRegistry headroomOnly;
  private PrometheusRegistry asServed;
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
  private MetricsEndpoint endpoint;
  private volatile Object snapshot = new Object();

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    tree = Fixtures.copy("kernel");
    Path sys = tree.resolve("sys");
    Path proc = tree.resolve("proc");
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    Config settings = SampleBench.settings(sys, proc, "wt0", "--underlay.line-rate=10gbit");
    Sampler sampler = new Sampler(settings, new ProcStatCpuSource(sys, proc), clock::get, () -> 1_764_460_800_000L,
        Runnable::run, null);
    sampler.sample();
    Fixtures.addCounter(tree, "wt0", "tx_bytes", 312_500_000);
    Fixtures.addCounter(tree, "wt0", "tx_packets", 250_000);
    Fixtures.addCounter(tree, "wt0", "rx_bytes", 62_500_000);
    Fixtures.addCounter(tree, "wt0", "rx_packets", 100_000);
    clock.addAndGet(1_000_000_000L);
    Sample s = sampler.sample();
    Observation o = Observations.from(s, Double.NaN, false);
    Judgement j = new Classifier(Thresholds.defaults()).observe(o, CeilingSelector.selectBoth(o, null, ConfigCeilings.NONE, Map.of(), CostModel.Estimate.NONE));
    Published p = new Published(s, j, null,
        SamplerTiming.NONE, Learned.NONE);
    HeadroomMetrics.ExporterInfo info = new HeadroomMetrics.ExporterInfo("bench", "dc-east", "eu-west", "wt0", 0.9);
    headroomOnly = new PrometheusRegistry();
    headroomOnly.register(new HeadroomMetrics(() -> p, info, new Refusals()));
    asServed = new PrometheusRegistry();
    asServed.register(new HeadroomMetrics(() -> p, info, new Refusals()));
    ServeCommand.registerOwnCost(asServed);
    endpoint = new MetricsEndpoint(asServed, () -> snapshot);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    Fixtures.delete(tree);
  }

  /** headroom's own families only. */
  @Benchmark
  public int scrapeHeadroomFamilies() throws IOException {
    out.reset();
    writer.write(out, headroomOnly.scrape(), EscapingScheme.ALLOW_UTF8);
    return out.size();
  }

  /**
   * A scrape as the service's /metrics handler serves it between two samples: the snapshot is unchanged, so
   * the bytes rendered for it are reused.
   */
  @Benchmark
  public int servedSameSnapshot() throws IOException {
    return endpoint.body(null, null).bytes().length;
  }

  /** The first scrape after a new sample, as the service serves it (text format): one render of the registry. */
  @Benchmark
  public int servedNewSnapshot() throws IOException {
    snapshot = new Object();
    return endpoint.body(null, null).bytes().length;
  }

  /** The same in OpenMetrics, as Prometheus asks for it. */
  @Benchmark
  public int servedNewSnapshotOpenMetrics() throws IOException {
    snapshot = new Object();
    return endpoint.body("application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5", null)
        .bytes().length;
  }

  /** The same, gzip asked for (as Prometheus does): render and compress once. */
  @Benchmark
  public int servedNewSnapshotGzip() throws IOException {
    snapshot = new Object();
    return endpoint.body(null, "gzip").bytes().length;
  }

  /** As the service's registry is: headroom's families plus the jvm_* and process_* it registers. */
  @Benchmark
  public int scrapeAsServed() throws IOException {
    out.reset();
    writer.write(out, asServed.scrape(), EscapingScheme.ALLOW_UTF8);
    return out.size();
  }
}
