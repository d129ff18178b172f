package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.PerDirection;
import java.time.Instant;
import java.util.OptionalDouble;

/** Profiles as files written before packet sizes were recorded have them: both sizes NaN. */
final class MeasuredProfiles {
  private MeasuredProfiles() {}

  static MeasuredProfile withoutPacketSizes(OptionalDouble downloadBytesPerSecond, Cause downloadLimit,
      OptionalDouble uploadBytesPerSecond, Cause uploadLimit, int cores, Datapath datapath, int tunnelMtu,
      Instant measuredAt) {
    return new MeasuredProfile(new PerDirection<>(
        new MeasuredProfile.Measured(downloadBytesPerSecond, downloadLimit, Double.NaN),
        new MeasuredProfile.Measured(uploadBytesPerSecond, uploadLimit, Double.NaN)), cores, datapath, tunnelMtu,
        measuredAt);
  }
}
