package dev.headroom.judge;

import dev.headroom.sample.Direction;
import java.util.Optional;

/**
 * One piece of advice and the fact it rests on; {@code serve.Explainer.advice} says it in words.
 *
 * <p>Usage: {@code for (AdviceItem a : judgement.advice()) System.out.println(a.advice().label() + ": " + Explainer.advice(judgement, a));}
 *
 * @param direction the direction it comes from, or null when it is about the peer as a whole
 */
public record AdviceItem(Advice advice, Direction direction, Ground ground) {
  public Optional<Direction> about() {
    return Optional.ofNullable(direction);
  }
}
