package dev.headroom.serve;

import dev.headroom.serve.web.Refusals;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.function.Supplier;

/**
 * Renders the latest published state as metric families, one class per area (tunnel, underlay, CPU and
 * datapath, verdict and ceiling, census and NetBird, the exporter itself), each declaring its families once,
 * as {@link Family} constants: the one Prometheus collector (client_java's {@code MultiCollector}); the
 * {@code *Collector} classes of {@code sample} collect readings, not metrics. Reads only the immutable snapshot;
 * never touches sysfs.
 *
 * <p>Usage: {@code registry.register(new HeadroomMetrics(published::get, info, refusals));}
 */
public final class HeadroomMetrics implements MultiCollector {
  private final Supplier<Published> state;
  private final ExporterInfo info;
  private final Refusals refusals;

  /** {@code refusals}: the counters the web layer ({@link dev.headroom.serve.web.WebSecurity}) counts into. */
  public HeadroomMetrics(Supplier<Published> state, ExporterInfo info, Refusals refusals) {
    this.state = state;
    this.info = info;
    this.refusals = refusals;
  }

  /** Static facts about this exporter and peer. */
  public record ExporterInfo(String version, String network, String site, String tunnelInterface, double saturation) {}

  @Override
  public MetricSnapshots collect() {
    Families f = new Families();
    SelfMetrics.info(f, info, refusals);
    Published p = state.get();
    if (p != null) {
      TunnelMetrics.write(f, p, info.tunnelInterface());
      UnderlayMetrics.write(f, p);
      CpuMetrics.write(f, p, info.saturation());
      VerdictMetrics.write(f, p);
      CensusMetrics.write(f, p);
      SelfMetrics.write(f, p);
    }
    return f.build();
  }
}
