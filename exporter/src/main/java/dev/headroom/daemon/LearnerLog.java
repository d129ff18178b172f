package dev.headroom.daemon;

import dev.headroom.judge.CeilingLearner;
import dev.headroom.judge.Units;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the ceiling learner reports, in the log: a change of the peer's shape that makes learning start over (once),
 * and a profile or configured ceiling the peer has just proven low (once per episode).
 *
 * <p>Usage: {@code LearnerLog.log(learner.update(judgement, fallback, nanos, now));}
 */
final class LearnerLog {
  private static final Logger log = LoggerFactory.getLogger(LearnerLog.class);

  private LearnerLog() {}

  static void log(CeilingLearner.Update u) {
    u.startedOver().ifPresent(r -> log.info("the peer changed ({}): observed ceilings start over",
        String.join(", ", Stream.of(
        changed("datapath", r.was().datapath().label(), r.now().datapath().label()),
        changed("usable cores", Units.num(r.was().usableCores(), 2), Units.num(r.now().usableCores(), 2)),
        changed("MTU", r.was().tunnelMtu(), r.now().tunnelMtu()),
        changed("CPU", "'" + r.was().cpuModel() + "'", "'" + r.now().cpuModel() + "'"))
        .filter(c -> !c.isEmpty()).toList())));
    u.newlyBeaten().forEach((d, b) -> log.warn(
        "{} sustained {} for {}, {} over its {} ceiling of {}: that ceiling is too low (kept, as it was set on"
            + " purpose; run 'headroom profile' again or raise ceiling.{})",
        d.label(), Units.gbpsText(b.sustainedBytesPerSecond()), Units.durationText(b.seconds()),
        Units.pct(b.sustainedBytesPerSecond() / b.ceilingBytesPerSecond() - 1), b.source().label(),
        Units.gbpsText(b.ceilingBytesPerSecond()), d.label()));
  }

  /** "MTU 1280 -> 1420", or "" when it did not change. */
  private static String changed(String what, Object was, Object now) {
    return was.equals(now) ? "" : what + " " + was + " -> " + now;
  }
}
