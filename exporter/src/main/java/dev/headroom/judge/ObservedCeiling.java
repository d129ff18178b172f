package dev.headroom.judge;

import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * A ceiling this peer showed by itself: the rate it sustained through an episode of saturation (or of beating
 * the ceiling it was read against), when it was learned and from how long an episode.
 *
 * <p>Usage: {@code Ceiling c = observed.ceiling(); Duration d = Duration.ofMillis((long) (observed.episodeSeconds() * 1000));}
 *
 * @param bytesPerSecond the episode's sustained rate (the median of its sample rates), inner bytes/s
 * @param learnedAt      when the episode's last sample was taken
 * @param episodeSeconds how long the episode had lasted then
 * @param packetBytes    the mean packet size the episode carried ({@link Observation#carriedPacketBytes}); NaN when
 *                       not recorded (read as full packets of the tunnel MTU)
 */
public record ObservedCeiling(double bytesPerSecond, Instant learnedAt, double episodeSeconds, From from,
    double packetBytes) {

  /** What an episode was: the kind of evidence behind an observed ceiling. */
  public enum From {
    /** The direction was bound by saturated cores while carrying most of the CPU's work. */
    CPU_SATURATED,
    /** The direction ran more than {@link CeilingLearner#BEAT_MARGIN} times its reference or observed ceiling. */
    BEAT_CEILING;

    private final String label = name().toLowerCase(Locale.ROOT);

    /** The value in JSON and in the state file. */
    public String label() {
      return label;
    }

    /** The value with this label, or null. */
    public static From of(String label) {
      return Arrays.stream(values()).filter(f -> f.label.equals(label)).findFirst().orElse(null);
    }
  }

  public ObservedCeiling {
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException("an observed ceiling must be a positive number of bytes/s, got " + bytesPerSecond);
    }
    if (!(episodeSeconds >= 0) || Double.isInfinite(episodeSeconds)) {
      throw new IllegalArgumentException("episodeSeconds must be >= 0, got " + episodeSeconds);
    }
  }

  /** As the ceiling in use, with this as its basis. */
  public Ceiling ceiling() {
    return new Ceiling(bytesPerSecond, CeilingSource.OBSERVED, false, new Ceiling.Observed(this), Optional.empty());
  }
}
