package dev.headroom.judge;

import dev.headroom.sample.Direction;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Picks the ceiling per direction, in order of trust: a measured profile that matches the peer's cores,
 * datapath and MTU; then a configured ceiling; then the ceiling observed on this peer ({@link CeilingLearner});
 * then the ceiling its datapath's cost per packet gives ({@link CostModel}); then the built-in
 * {@link ReferenceProfile}. Every ceiling but a configured one is read at the packets the direction carries now
 * ({@link Observation#carriedPacketBytes}): the reference was measured with full packets, a profile and an observed
 * ceiling record their own ({@link PacketSize}).
 *
 * <p>Usage: {@code Ceiling c = CeilingSelector.select(observation, profileOrNull, config, known.observed(), known.cost(), Direction.UPLOAD);}
 */
public final class CeilingSelector {
  private CeilingSelector() {}

  /**
   * The ceiling for one direction. {@code profile} may be null (no profile file); {@code observed} holds the
   * ceilings learned under the peer's present shape (empty for none); {@code cost} the cost model's estimate
   * ({@link CostModel.Estimate#NONE} for none).
   */
  public static Ceiling select(Observation o, MeasuredProfile profile, ConfigCeilings config,
      Map<Direction, ObservedCeiling> observed, CostModel.Estimate cost, Direction d) {
    double packet = o.carriedPacketBytes(d);
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
        // A profile stopped by the link measured the NIC, not the datapath: bytes, whatever the packets.
        boolean link = profile.limit(d) == Cause.LINK_FULL;
        double bytes = measured.getAsDouble();
        return new Ceiling(bytes, CeilingSource.PROFILE, link, new Ceiling.Profile(profile, d), skipped)
            .at(link ? bytes : bytes * PacketSize.scale(o.datapath(), d, profile.packetBytes(d), packet), packet,
                skipped, cost);
      }
      skipped = Optional.of(new Ceiling.Skipped(mismatch.get(), profile, o, d));
    }
    if (config != null && config.of(d).isPresent()) {
      // The operator's figure, in bytes as they gave it.
      return new Ceiling(config.of(d).getAsDouble(), CeilingSource.CONFIG, false, new Ceiling.Config(d), skipped)
          .at(config.of(d).getAsDouble(), packet, skipped, cost);
    }
    ObservedCeiling seen = observed.get(d);
    if (seen != null) {
      double from = Double.isNaN(seen.packetBytes()) ? o.tunnelMtu() : seen.packetBytes();
      return seen.ceiling().at(seen.bytesPerSecond() * PacketSize.scale(o.datapath(), d, from, packet), packet,
          skipped, cost);
    }
    // Unknown online cores: the number of cores that reported busy ratios is the next best count.
    // Under a CPU quota the peer has fractional cores: the table is read between its rows.
    double cores = o.onlineCores() > 0 || o.coreBusy().length > 0 ? Classifier.peerCores(o) : 0;
    Ceiling reference = ReferenceProfile.ceiling(o.datapath(), cores, o.tunnelMtu(), o.lineRate(), d, packet);
    double fromCost = CostModel.ceiling(cost, o, d);
    if (!Double.isNaN(fromCost)) {
      double line = o.lineRate().isPresent() ? ReferenceProfile.innerLineRate(o.lineRate().getAsDouble(), packet)
          : Double.POSITIVE_INFINITY;
      return new Ceiling(Math.min(fromCost, line), CeilingSource.COST, line < fromCost,
          new Ceiling.Cost(d, o.datapath(), CostModel.ceilingCores(cost, o, d)), skipped, packet, cost);
    }
    return reference.at(reference.bytesPerSecond(), packet, skipped, cost);
  }

  /** Both directions' ceilings; see {@link #select}. */
  public static Map<Direction, Ceiling> selectBoth(Observation o, MeasuredProfile profile, ConfigCeilings config,
      Map<Direction, ObservedCeiling> observed, CostModel.Estimate cost) {
    return Direction.each(d -> select(o, profile, config, observed, cost, d));
  }
}
