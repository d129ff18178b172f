package dev.headroom.judge;

import dev.headroom.sample.Direction;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Picks the ceiling per direction, in order of trust: a measured profile that matches the peer's cores,
 * datapath and MTU; then a configured ceiling; then the ceiling observed on this peer ({@link CeilingLearner});
 * then the built-in {@link ReferenceProfile}.
 *
 * <p>Usage: {@code Ceiling c = CeilingSelector.select(observation, profileOrNull, config, learner.inUse(observation), Direction.UPLOAD);}
 */
public final class CeilingSelector {
  private CeilingSelector() {}

  /** The ceiling for one direction, nothing observed. {@code profile} may be null (no profile file). */
  public static Ceiling select(Observation o, MeasuredProfile profile, ConfigCeilings config, Direction d) {
    return select(o, profile, config, Map.of(), d);
  }

  /**
   * The ceiling for one direction. {@code profile} may be null (no profile file); {@code observed} holds the
   * ceilings learned under the peer's present shape (empty for none).
   */
  public static Ceiling select(Observation o, MeasuredProfile profile, ConfigCeilings config,
      Map<Direction, ObservedCeiling> observed, Direction d) {
    String skipped = "";
    if (profile != null) {
      OptionalDouble measured = profile.ceiling(d);
      Optional<String> mismatch = profile.mismatch(o);
      // One pegged core measured one tunnel's limit: more users or tunnels go past it, so it is not the peer's.
      if (measured.isPresent() && mismatch.isEmpty() && profile.limit(d) == Cause.ONE_TUNNEL_CORE) {
        mismatch = Optional.of("profile measured one tunnel's limit, not the peer's");
      }
      if (measured.isPresent() && mismatch.isEmpty()) {
        StringBuilder basis = new StringBuilder("profile: measured ")
            .append(Units.gbpsText(measured.getAsDouble()))
            .append(" on this peer, ").append(profile.datapath().label()).append(" datapath, ")
            .append(profile.cores()).append(" cores, MTU ").append(profile.tunnelMtu())
            .append(", limited by ").append(ProfileFile.limitLabel(profile.limit(d)));
        profile.when().ifPresent(t -> basis.append(", at ").append(t));
        // A profile stopped by the link measured the NIC, not the datapath.
        return new Ceiling(measured.getAsDouble(), CeilingSource.PROFILE, basis.toString(),
            profile.limit(d) == Cause.LINK_FULL);
      }
      skipped = " (" + mismatch.orElse("profile has no " + d.label() + " measurement") + ")";
    }
    if (config != null && config.of(d).isPresent()) {
      double v = config.of(d).getAsDouble();
      return new Ceiling(v, CeilingSource.CONFIG, "config: ceiling." + d.label() + " = " + Units.gbpsText(v) + skipped,
          false);
    }
    ObservedCeiling seen = observed.get(d);
    if (seen != null) {
      Ceiling c = seen.ceiling();
      return new Ceiling(c.bytesPerSecond(), c.source(), c.basis() + skipped, false);
    }
    // Unknown online cores: the number of cores that reported busy ratios is the next best count.
    // Under a CPU quota the peer has fractional cores: the table is read between its rows.
    double cores = o.onlineCores() > 0 || o.coreBusy().length > 0 ? Classifier.peerCores(o) : 0;
    Ceiling ref = ReferenceProfile.ceiling(o.datapath(), cores, o.tunnelMtu(), o.lineRate(), d);
    return new Ceiling(ref.bytesPerSecond(), ref.source(), ref.basis() + skipped, ref.linkCapped());
  }

  /** The ceilings for both directions, nothing observed. */
  public static Map<Direction, Ceiling> selectBoth(Observation o, MeasuredProfile profile, ConfigCeilings config) {
    return selectBoth(o, profile, config, Map.of());
  }

  /** The ceilings for both directions. */
  public static Map<Direction, Ceiling> selectBoth(Observation o, MeasuredProfile profile, ConfigCeilings config,
      Map<Direction, ObservedCeiling> observed) {
    Map<Direction, Ceiling> m = new EnumMap<>(Direction.class);
    for (Direction d : Direction.values()) {
      m.put(d, select(o, profile, config, observed, d));
    }
    return m;
  }
}
