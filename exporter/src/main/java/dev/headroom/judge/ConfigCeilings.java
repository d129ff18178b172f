package dev.headroom.judge;

import dev.headroom.sample.Direction;
import java.util.OptionalDouble;

/**
 * Ceilings the operator set ({@code --ceiling.download}, {@code --ceiling.upload}), in bytes/s.
 *
 * <p>Usage: {@code ConfigCeilings c = new ConfigCeilings(OptionalDouble.of(2.5e8), OptionalDouble.empty());}
 */
public record ConfigCeilings(OptionalDouble downloadBytesPerSecond, OptionalDouble uploadBytesPerSecond) {
  public static final ConfigCeilings NONE = new ConfigCeilings(OptionalDouble.empty(), OptionalDouble.empty());

  public OptionalDouble of(Direction d) {
    return d == Direction.DOWNLOAD ? downloadBytesPerSecond : uploadBytesPerSecond;
  }
}
