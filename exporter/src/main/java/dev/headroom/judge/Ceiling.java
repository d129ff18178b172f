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
 */
public record Ceiling(double bytesPerSecond, CeilingSource source, boolean linkCapped, Basis basis,
    Optional<Skipped> skipped) {
  public Ceiling {
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException("ceiling must be a positive number of bytes/s, got " + bytesPerSecond);
    }
  }

  /** The ceiling in Gbps (bits), as people say it. */
  public double gbps() {
    return Units.gbps(bytesPerSecond);
  }

  /** The figures a ceiling was worked out from: one record per source. */
  public sealed interface Basis permits Reference, Profile, Config, Observed {}

  /** Read off the reference tables at {@code cores} (0: unknown), times {@code jumboFactor}; capped by a NIC line rate. */
  public record Reference(Datapath datapath, double cores, int tunnelMtu, double jumboFactor, OptionalDouble cappedBy)
      implements Basis {}

  /** Measured on this peer by {@code headroom profile}. */
  public record Profile(MeasuredProfile profile, Direction direction) implements Basis {}

  /** Set by the operator as {@code ceiling.<direction>}. */
  public record Config(Direction direction) implements Basis {}

  /** Learned on this peer. */
  public record Observed(ObservedCeiling seen) implements Basis {}

  /** A profile on file that does not describe the peer {@code now}, and what differs. */
  public record Skipped(MeasuredProfile.Mismatch why, MeasuredProfile profile, Observation now, Direction direction) {}
}
