package dev.headroom.judge;

import dev.headroom.sample.Direction;
import java.util.Objects;

/**
 * The verdict for one direction: its rate against its ceiling, what limits it, and the fact it rests on. Words
 * come from {@code serve.Explainer.reason}.
 *
 * <p>Usage: {@code gauge.labelValues(j.direction().label()).set(j.utilization());}
 *
 * @param direction               download or upload
 * @param ceiling                 the ceiling in use
 * @param utilization             throughput / ceiling
 * @param verdict                 the settled verdict (after hysteresis)
 * @param cause                   why, as a fact; {@code cause.verdict() == verdict}
 * @param spare                   how much more of this direction the peer can carry now ({@link SpareCapacity})
 */
public record DirectionJudgement(
    Direction direction,
    Ceiling ceiling,
    double utilization,
    Verdict verdict,
    Cause cause,
    SpareCapacity.Spare spare) {
  public DirectionJudgement {
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(ceiling, "ceiling");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(cause, "cause");
    Objects.requireNonNull(spare, "spare");
    if (cause.verdict() != verdict) {
      throw new IllegalArgumentException("cause " + cause.label() + " does not yield " + verdict.label());
    }
  }
}
