package dev.headroom.sample;

import dev.headroom.read.CpuSource;
import dev.headroom.read.ReadException;
import java.util.List;

/**
 * Per-core busy ratios and mode deltas from a {@link CpuSource}, keyed by real CPU id. Only the sampling
 * thread calls it.
 *
 * <p>Usage: {@code CpuState c = new CpuCollector(CpuSource.forRoots(sys, proc)).collect();}
 */
public final class CpuCollector {
  static final String SOURCE = "cpu";

  private final CpuSource source;
  private final CoreTracker cores = new CoreTracker();
  private final SourceHealthTracker health = new SourceHealthTracker(SOURCE);

  public CpuCollector(CpuSource source) {
    this.source = source;
  }

  public CpuState collect() {
    try {
      List<Core> c = cores.update(source.read());
      health.ok();
      return new CpuState(c, cores.deltaUserMillis(), cores.deltaSystemMillis(), cores.deltaSoftirqMillis(),
          cores.deltaTotalMillis(), health.snapshot());
    } catch (ReadException e) {
      // The tracker keeps its previous times, so the next good read covers the gap.
      health.failed(e.getMessage());
      return new CpuState(List.of(), 0, 0, 0, 0, health.snapshot());
    }
  }
}
