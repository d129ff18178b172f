package dev.headroom.bench;

import dev.headroom.judge.CeilingSelector;
import dev.headroom.judge.ConfigCeilings;
import dev.headroom.judge.CostModel;
import dev.headroom.judge.Observation;
import dev.headroom.read.Datapath;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the cost model adds to each sample: one {@link CostModel#feed} and {@link CostModel#estimate}, and the
 * ceilings chosen with its estimate, against the ceilings chosen without one (the work every sample did before).
 * Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the allocation per sample.
 *
 * <p>Usage: {@code exporter/src/bench/jmh.sh CostBench -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CostBench {
  private Observation o;
  private CostModel model;
  private long nanos;

  @Setup
  public void setUp() {
    o = Observation.builder(Datapath.KERNEL, 16).coreBusy(new double[16]).datapathCpuCores(4.8)
        .throughput(1.1e9, 4e7).packets(1.1e9 / 1280, 4e7 / 64).lineRate(1.25e10).build();
    model = new CostModel(Duration.ofMinutes(1), null);
    for (int i = 0; i < 120; i++) {
      model.feed(o, 1e6, (nanos += 1_000_000_000L));
    }
  }

  /** The ceilings as every sample chose them before the cost model: profile, config, observed, reference. */
  @Benchmark
  public Object ceilingsWithoutCost() {
    return CeilingSelector.selectBoth(o, null, ConfigCeilings.NONE, Map.of(), CostModel.Estimate.NONE);
  }

  /** One sample's cost model work and the ceilings chosen with it. */
  @Benchmark
  public Object ceilingsWithCost() {
    model.feed(o, 1e6, (nanos += 1_000_000_000L));
    return CeilingSelector.selectBoth(o, null, ConfigCeilings.NONE, Map.of(), model.estimate(o));
  }
}
