package dev.headroom.serve;

import dev.headroom.judge.Advice;
import dev.headroom.judge.CeilingSource;
import dev.headroom.judge.CostModel;
import dev.headroom.judge.Judgement;
import dev.headroom.judge.Verdict;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The judgement per direction: the ceiling in use and where it comes from, utilization against it, the
 * verdict, the spare capacity, and the advice.
 *
 * <p>Usage: {@code VerdictMetrics.write(families, published);}
 */
final class VerdictMetrics {
  static final Family CEILING = Family.gauge("headroom_ceiling_bytes_per_second", "The ceiling in use for the direction.");
  static final Family CEILING_PACKETS = Family.gauge("headroom_ceiling_packets_per_second",
      "The ceiling in packets per second, at the packet size the direction carries now.");
  static final Family CEILING_SOURCE = Family.gauge("headroom_ceiling_source",
      "Where the ceiling comes from: profile (measured here), config, observed (learned from this peer's own saturation), cost (from what each packet costs this peer's CPU), or the reference tables.");
  static final Family COST = Family.gauge("headroom_cost_cpu_seconds_per_packet",
      "CPU seconds the datapath spends on one 1280-byte packet of the direction, learned from its traffic (absent until learned).");
  static final Family CPU_SPEED = Family.gauge("headroom_cpu_speed_ratio",
      "This CPU's datapath work per core over one core of the reference box (the sizing guide's), per direction (absent until the cost is learned).");
  static final Family COST_EVIDENCE = Family.gauge("headroom_cost_evidence_seconds",
      "Loaded seconds of traffic the learned cost per packet rests on.");
  static final Family UTILIZATION = Family.gauge("headroom_utilization_ratio", "Tunnel throughput over the ceiling.");
  static final Family PEAK_UTILIZATION = Family.gauge("headroom_peak_utilization_ratio",
      "Sliding-window peak throughput over the ceiling.");
  static final Family VERDICT = Family.gauge("headroom_verdict", "What limits the direction now (one series per state).");
  static final Family SPARE = Family.gauge("headroom_spare_bytes_per_second",
      "How much more of the direction the peer can carry now, given what the other direction costs.");
  static final Family ADVICE = Family.gauge("headroom_advice",
      "What to do (one series per recommendation; the reason is on / and /api/v1/status).");

  private static final String[] SOURCES = Stream.of(CeilingSource.values()).map(CeilingSource::label)
      .toArray(String[]::new);
  private static final String[] VERDICTS = Stream.of(Verdict.values()).map(Verdict::label).toArray(String[]::new);
  private static final String[] ADVICES = Stream.of(Advice.values()).map(Advice::label).toArray(String[]::new);

  private VerdictMetrics() {}

  static void write(Families f, Published p) {
    Judgement j = p.judgement();
    if (j == null) {
      return;
    }
    Sample s = p.sample();
    for (Direction d : Direction.values()) {
      double ceiling = j.of(d).ceiling().bytesPerSecond();
      f.gauge(CEILING, ceiling, "direction", d.label());
      f.gauge(CEILING_PACKETS, j.of(d).ceiling().packetsPerSecond(), "direction", d.label());
      CostModel.Estimate cost = j.of(d).ceiling().cost();
      f.gauge(COST, cost.usable() ? cost.cost(d) : Double.NaN, "direction", d.label());
      f.gauge(CPU_SPEED, CostModel.speed(cost, j.observation().datapath(), d), "direction", d.label());
      f.stateSet(CEILING_SOURCE, "source", SOURCES, Set.of(j.of(d).ceiling().source().label()), "direction", d.label());
      f.gauge(UTILIZATION, j.of(d).utilization(), "direction", d.label());
      f.gauge(PEAK_UTILIZATION, ceiling > 0 ? s.peak(d) / ceiling : Double.NaN, "direction", d.label());
      f.stateSet(VERDICT, "verdict", VERDICTS, Set.of(j.of(d).verdict().label()), "direction", d.label());
      // Unknown (no datapath, an unmeasured rate) is left out rather than exposed as a made-up 0.
      f.gauge(SPARE, j.of(d).spare().bytesPerSecond(), "direction", d.label());
    }
    CostModel.Estimate cost = j.of(Direction.DOWNLOAD).ceiling().cost();
    // Absent where the cost model does not run (no datapath, or its CPU unmeasured): no evidence is not 0 seconds.
    f.gauge(COST_EVIDENCE, cost.shortfall() == CostModel.Shortfall.NO_CPU ? Double.NaN : cost.seconds());
    f.stateSet(ADVICE, "advice", ADVICES, j.adviceSet().stream().map(Advice::label).collect(Collectors.toSet()));
  }
}
