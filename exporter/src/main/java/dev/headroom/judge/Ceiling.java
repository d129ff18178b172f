package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The throughput one direction of the peer can carry, where that number came from, and the facts it was worked
 * out from ({@code serve.Explainer.basis} says them in words).
 *
 * <p>Usage: {@code double util = rate / ceiling.bytesPerSecond(); if (ceiling.basis() instanceof Ceiling.Config) ...}
 *
 * @param bytesPerSecond inner (tunnel) bytes per second, positive and finite
 * @param linkCapped     the NIC's line rate set it, not the CPU: holding it is the link's limit, not the datapath's
 * @param skipped        the profile on file that was set aside, and why; empty when none was or it is the basis
 * @param packetBytes    the packet size the byte figure is read at (the direction's mean, or full packets); NaN when
 *                       not said
 * @param cost           the cost model as it stood when this ceiling was chosen ({@link CostModel.Estimate#NONE}
 *                       when none): the basis of a {@code cost} ceiling, and why a reference one is not one yet
 */
public record Ceiling(double bytesPerSecond, CeilingSource source, boolean linkCapped, Basis basis,
    Optional<Skipped> skipped, double packetBytes, CostModel.Estimate cost) {
  public Ceiling {
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException("ceiling must be a positive number of bytes/s, got " + bytesPerSecond);
    }
  }

  /** A ceiling not yet read at a packet size. */
  public Ceiling(double bytesPerSecond, CeilingSource source, boolean linkCapped, Basis basis,
      Optional<Skipped> skipped) {
    this(bytesPerSecond, source, linkCapped, basis, skipped, Double.NaN, CostModel.Estimate.NONE);
  }

  /** The ceiling in packets per second at its packet size; NaN when that is not said. */
  public double packetsPerSecond() {
    return bytesPerSecond / packetBytes;
  }

  /** The same ceiling, its bytes read at packets of {@code bytes}, beside the cost model's state. */
  Ceiling at(double bytesPerSecond, double packetBytes, Optional<Skipped> skipped, CostModel.Estimate cost) {
    return new Ceiling(bytesPerSecond, source, linkCapped, basis, skipped, packetBytes, cost);
  }

  /** The ceiling in Gbps (bits), as people say it. */
  public double gbps() {
    return Units.gbps(bytesPerSecond);
  }

  /** The figures a ceiling was worked out from: one record per source. */
  public sealed interface Basis permits Reference, Profile, Config, Observed, Cost {}

  /** Read off the reference tables at {@code cores} (0: unknown), times {@code jumboFactor}; capped by a NIC line rate. */
  public record Reference(Datapath datapath, double cores, int tunnelMtu, double jumboFactor, OptionalDouble cappedBy)
      implements Basis {}

  /** Measured on this peer by {@code headroom profile}. */
  public record Profile(MeasuredProfile profile, Direction direction) implements Basis {}

  /** Set by the operator as {@code ceiling.<direction>}. */
  public record Config(Direction direction) implements Basis {}

  /** Learned on this peer. */
  public record Observed(ObservedCeiling seen) implements Basis {}

  /**
   * From what a unit of traffic costs this peer's datapath ({@link CostModel}), over {@code cores} cores of which
   * {@code fixedCores} go to idle work.
   */
  public record Cost(Direction direction, Datapath datapath, double cores) implements Basis {}

  /** A profile on file that does not describe the peer {@code now}, and what differs. */
  public record Skipped(MeasuredProfile.Mismatch why, MeasuredProfile profile, Observation now, Direction direction) {}
}
