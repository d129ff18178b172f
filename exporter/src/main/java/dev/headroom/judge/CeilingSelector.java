package dev.headroom.judge;

import dev.headroom.sample.Direction;
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

  /**
   * The ceiling for one direction. {@code profile} may be null (no profile file); {@code observed} holds the
   * ceilings learned under the peer's present shape (empty for none).
   */
  public static Ceiling select(Observation o, MeasuredProfile profile, ConfigCeilings config,
      Map<Direction, ObservedCeiling> observed, Direction d) {
    Optional<Ceiling.Skipped> skipped = Optional.empty();
    if (profile != null) {
      OptionalDouble measured = profile.ceiling(d);
      Optional<MeasuredProfile.Mismatch> mismatch = profile.mismatch(o);
      if (mismatch.isEmpty() && measured.isEmpty()) {
        mismatch = Optional.of(MeasuredProfile.Mismatch.NOT_MEASURED);
      } else if (mismatch.isEmpty() && profile.limit(d) == Cause.ONE_TUNNEL_CORE) {
        // One pegged core measured one tunnel's limit: more users or tunnels go past it, so it is not the peer's.
        mismatch = Optional.of(MeasuredProfile.Mismatch.ONE_TUNNEL);
      }
      if (mismatch.isEmpty()) {
        // A profile stopped by the link measured the NIC, not the datapath.
        return new Ceiling(measured.getAsDouble(), CeilingSource.PROFILE, profile.limit(d) == Cause.LINK_FULL,
            new Ceiling.Profile(profile, d), skipped);
      }
      skipped = Optional.of(new Ceiling.Skipped(mismatch.get(), profile, o, d));
    }
    if (config != null && config.of(d).isPresent()) {
      return new Ceiling(config.of(d).getAsDouble(), CeilingSource.CONFIG, false, new Ceiling.Config(d), skipped);
    }
    ObservedCeiling seen = observed.get(d);
    // Unknown online cores: the number of cores that reported busy ratios is the next best count.
    // Under a CPU quota the peer has fractional cores: the table is read between its rows.
    double cores = o.onlineCores() > 0 || o.coreBusy().length > 0 ? Classifier.peerCores(o) : 0;
    Ceiling c = seen != null ? seen.ceiling()
        : ReferenceProfile.ceiling(o.datapath(), cores, o.tunnelMtu(), o.lineRate(), d);
    return new Ceiling(c.bytesPerSecond(), c.source(), c.linkCapped(), c.basis(), skipped);
  }

  public static Map<Direction, Ceiling> selectBoth(Observation o, MeasuredProfile profile, ConfigCeilings config,
      Map<Direction, ObservedCeiling> observed) {
    return Direction.each(d -> select(o, profile, config, observed, d));
  }
}
