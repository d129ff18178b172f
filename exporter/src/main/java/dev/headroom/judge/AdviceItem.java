package dev.headroom.judge;

import java.util.Objects;

/**
 * One piece of advice and the reason for it, in a sentence with numbers.
 *
 * <p>Usage: {@code for (AdviceItem a : judgement.advice()) page.li(a.advice().label() + ": " + a.reason());}
 */
public record AdviceItem(Advice advice, String reason) {
  public AdviceItem {
    Objects.requireNonNull(advice, "advice");
    Objects.requireNonNull(reason, "reason");
  }
}
