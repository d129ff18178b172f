package dev.headroom.judge;

import dev.headroom.sample.Direction;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * What the peer has learned about its own ceilings, as published with each sample: the observed ceiling per
 * direction (whether or not it is the one in use), the configured or profiled ceilings the peer has beaten, and
 * how the state file is doing. Immutable.
 *
 * <p>Usage: {@code ObservedCeiling c = learned.applies() ? learned.observed().get(Direction.DOWNLOAD) : null;}
 *
 * @param applies  the ceilings describe the peer as it is now (its shape has not changed)
 * @param observed observed ceilings per direction; a direction never learned is absent
 * @param beaten   ceilings from a profile or config that the peer has sustained more than
 *                 {@link CeilingLearner#BEAT_MARGIN} times; absent when not beaten
 * @param store    the state file's health
 */
public record Learned(boolean applies, Map<Direction, ObservedCeiling> observed,
    Map<Direction, Beaten> beaten, Store store) {
  /** Nothing learned and no state file (one-off snapshots, tests). */
  public static final Learned NONE = new Learned(false, Map.of(), Map.of(), Store.NONE);

  public Learned {
    observed = copy(observed);
    beaten = copy(beaten);
  }

  private static <V> Map<Direction, V> copy(Map<Direction, V> m) {
    EnumMap<Direction, V> c = new EnumMap<>(Direction.class);
    c.putAll(m);
    return Collections.unmodifiableMap(c);
  }

  /**
   * A configured or profiled ceiling that the peer beat: kept in use (it was set on purpose), reported instead.
   *
   * @param source                  profile or config
   * @param sustainedBytesPerSecond what the peer sustained (the episode's median rate)
   * @param seconds                 for how long
   * @param at                      when last seen
   */
  public record Beaten(CeilingSource source, double ceilingBytesPerSecond, double sustainedBytesPerSecond,
      double seconds, Instant at) {}

  /**
   * The state file: where, whether the last write worked, failures counted, the last one.
   *
   * @param file      the state file; "" when there is none
   * @param up        the last read or write worked (or none was needed yet)
   * @param errors    failed reads and writes since start
   * @param lastError the last failure; "" when none
   */
  public record Store(String file, boolean up, long errors, String lastError) {
    public static final Store NONE = new Store("", true, 0, "");
  }
}
