package dev.headroom.judge;

import dev.headroom.sample.Direction;

/**
 * The verdict for one direction: its rate against its ceiling, what limits it, and the fact it rests on. Words
 * come from {@code serve.Explainer.reason}.
 *
 * <p>Usage: {@code gauge.labelValues(j.direction().label()).set(j.utilization());}
 *
 * @param utilization             throughput / ceiling
 * @param cause                   why, as a fact, after hysteresis; it yields the {@link #verdict()}
 * @param spare                   how much more of this direction the peer can carry now ({@link SpareCapacity})
 */
public record DirectionJudgement(
    Direction direction,
    Ceiling ceiling,
    double utilization,
    Cause cause,
    SpareCapacity.Spare spare) {
  /** The settled verdict: the one its cause yields. */
  public Verdict verdict() {
    return cause.verdict();
  }
}
