package dev.headroom.judge;

import dev.headroom.sample.Direction;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The judge's answer for one sample: per direction ceiling, utilization, verdict and cause; the advice with the
 * fact behind each; and the observation it was decided on (the numbers {@code serve.Explainer} quotes). Immutable, so
 * the sampling thread can publish it to HTTP threads through a volatile field.
 *
 * <p>Usage: {@code Judgement j = classifier.observe(obs, ceilings); j.of(Direction.DOWNLOAD).verdict(); j.adviceSet();}
 *
 * @param usableCores  the cores the datapath can keep busy (fractional under a CPU quota)
 * @param directions   one entry per {@link Direction}
 * @param advice       at least one item; exactly {@code none} when nothing else applies; in the order to act on it
 */
public record Judgement(
    Observation observation,
    double usableCores,
    Map<Direction, DirectionJudgement> directions,
    List<AdviceItem> advice) {
  public Judgement {
    directions = Collections.unmodifiableMap(new EnumMap<>(directions));
    advice = List.copyOf(advice);
  }

  public DirectionJudgement of(Direction d) {
    return directions.get(d);
  }

  /** The advice as a set, for the StateSet. */
  public Set<Advice> adviceSet() {
    EnumSet<Advice> s = EnumSet.noneOf(Advice.class);
    advice.forEach(a -> s.add(a.advice()));
    return s;
  }
}
