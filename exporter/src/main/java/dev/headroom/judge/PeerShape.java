package dev.headroom.judge;

import dev.headroom.read.Datapath;
import java.util.Optional;

/**
 * What a learned ceiling is keyed by, like a profile: the datapath, the cores it can keep busy (fractional under
 * a CPU quota or an affinity limit), the tunnel MTU, and the CPU model. Any of them changed, the peer carries
 * another rate and what was learned no longer holds.
 *
 * <p>Usage: {@code PeerShape.of(observation, judgement.usableCores(), CpuModel.read(procfs)).ifPresent(shape -> ...);}
 */
public record PeerShape(Datapath datapath, double usableCores, int tunnelMtu, String cpuModel) {
  /** Usable cores closer than this are the same (a quota read back as 2.4999 is 2.5). */
  private static final double CORES_TOLERANCE = 0.01;

  public PeerShape {
    if (datapath == Datapath.ABSENT || !(usableCores > 0) || Double.isInfinite(usableCores) || tunnelMtu < 1) {
      throw new IllegalArgumentException("not a peer's shape: " + datapath.label() + ", " + usableCores
          + " cores, MTU " + tunnelMtu);
    }
  }

  /**
   * The shape an observation was made under, with the cores the judge found usable (always some); empty while
   * it cannot be told (no datapath, or cores unknown; an observation always has a tunnel MTU).
   */
  public static Optional<PeerShape> of(Observation o, double usableCores, String cpuModel) {
    if (o.datapath() == Datapath.ABSENT || o.onlineCores() <= 0) {
      return Optional.empty();
    }
    return Optional.of(new PeerShape(o.datapath(), usableCores, o.tunnelMtu(), cpuModel));
  }

  /** The same peer, as far as a ceiling goes. */
  public boolean sameAs(PeerShape other) {
    return other != null && datapath == other.datapath && tunnelMtu == other.tunnelMtu
        && cpuModel.equals(other.cpuModel) && Math.abs(usableCores - other.usableCores) < CORES_TOLERANCE;
  }
}
