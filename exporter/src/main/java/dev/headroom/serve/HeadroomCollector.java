package dev.headroom.serve;

import dev.headroom.serve.web.Refusals;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.List;
import java.util.function.Supplier;

/**
 * Renders the latest published state as metric families, one {@link MetricArea} per area (tunnel, underlay,
 * CPU and datapath, verdict and ceiling, census and NetBird, the exporter itself), each declaring its
 * families once. Reads only the immutable snapshot (and takes the since-last-scrape peaks); never touches
 * sysfs.
 *
 * <p>Usage: {@code registry.register(new HeadroomCollector(published::get, info, refusals));}
 */
public final class HeadroomCollector implements MultiCollector {
  private final Supplier<Published> state;
  private final SelfMetrics self;
  private final List<MetricArea> areas;

  /** {@code refusals}: the counters the web layer ({@link dev.headroom.serve.web.WebSecurity}) counts into. */
  public HeadroomCollector(Supplier<Published> state, ExporterInfo info, Refusals refusals) {
    this.state = state;
    this.self = new SelfMetrics(info, refusals);
    this.areas = List.of(new TunnelMetrics(info.tunnelInterface()), new UnderlayMetrics(),
        new CpuMetrics(info.saturation()), new VerdictMetrics(), new CensusMetrics(), self);
  }

  /** Static facts about this exporter and peer. */
  public record ExporterInfo(String version, String network, String site, String tunnelInterface, double saturation) {}

  @Override
  public MetricSnapshots collect() {
    Families f = new Families();
    self.info(f);
    Published p = state.get();
    if (p != null) {
      for (MetricArea a : areas) {
        a.write(f, p);
      }
    }
    return f.build();
  }
}
