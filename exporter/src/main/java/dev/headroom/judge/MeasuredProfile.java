package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import dev.headroom.sample.PerDirection;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Ceilings measured on this peer by {@code headroom profile}, and the conditions they hold under. A direction
 * that was not measured has an empty ceiling.
 *
 * <p>Usage: {@code MeasuredProfile p = ProfileFile.read(path); p.ceiling(Direction.DOWNLOAD).ifPresent(...);}
 *
 * @param directions  what each direction measured
 * @param cores       online cores during the measurement
 * @param datapath    datapath during the measurement
 * @param tunnelMtu   tunnel MTU during the measurement
 * @param measuredAt  when it was measured; may be null when the file did not say
 */
public record MeasuredProfile(PerDirection<Measured> directions, int cores, Datapath datapath, int tunnelMtu,
    Instant measuredAt) {

  /**
   * What one direction measured.
   *
   * @param bytesPerSecond the measured ceiling, inner bytes/s; empty when the direction was not measured
   * @param limit          what stopped it rising, one of the classifier's causes
   * @param packetBytes    the mean packet size it carried on its plateau; NaN when not recorded (read as full
   *                       packets of the tunnel MTU, as files written before it was recorded were measured)
   */
  public record Measured(OptionalDouble bytesPerSecond, Cause limit, double packetBytes) {}

  public MeasuredProfile {
    if (cores < 1) {
      throw new IllegalArgumentException("cores must be >= 1, got " + cores);
    }
    if (tunnelMtu < 1) {
      throw new IllegalArgumentException("tunnelMtu must be positive, got " + tunnelMtu);
    }
  }

  /** The measured ceiling in a direction, if that direction was measured. */
  public OptionalDouble ceiling(Direction d) {
    return directions.get(d).bytesPerSecond();
  }

  /** The mean packet size a direction was measured at: recorded, else full packets of the tunnel MTU. */
  public double packetBytes(Direction d) {
    double p = directions.get(d).packetBytes();
    return Double.isNaN(p) ? tunnelMtu : p;
  }

  /** What stopped a direction rising; {@link Cause#ROOM} when nothing on the peer was full. */
  public Cause limit(Direction d) {
    return directions.get(d).limit();
  }

  /**
   * This profile with the directions it did not measure taken from an earlier one measured under the same
   * conditions (cores, datapath, MTU): a download run keeps the upload ceiling an earlier upload run found. An
   * earlier profile from other conditions describes another machine and contributes nothing.
   */
  public MeasuredProfile keepingFrom(MeasuredProfile earlier) {
    if (earlier == null || earlier.cores != cores || earlier.datapath != datapath || earlier.tunnelMtu != tunnelMtu) {
      return this;
    }
    return new MeasuredProfile(PerDirection.of(d -> ceiling(d).isEmpty() && earlier.ceiling(d).isPresent()
        ? earlier.directions.get(d) : directions.get(d)), cores, datapath, tunnelMtu, measuredAt);
  }

  /** When it was measured, if the file said. */
  public Optional<Instant> when() {
    return Optional.ofNullable(measuredAt);
  }

  /** What keeps a profile from describing the peer: other cores, datapath or MTU; one tunnel's limit; not measured. */
  public enum Mismatch { CORES, DATAPATH, MTU, ONE_TUNNEL, NOT_MEASURED }

  /**
   * Why this profile does not describe the observed peer, or empty when it does: a profile measured with other
   * cores, another datapath or another tunnel MTU is a different machine and falls back to config or reference.
   */
  public Optional<Mismatch> mismatch(Observation o) {
    if (o.onlineCores() > 0 && o.onlineCores() != cores) {
      return Optional.of(Mismatch.CORES);
    }
    if (o.datapath() != Datapath.ABSENT && o.datapath() != datapath) {
      return Optional.of(Mismatch.DATAPATH);
    }
    return o.tunnelMtu() != tunnelMtu ? Optional.of(Mismatch.MTU) : Optional.empty();
  }
}
