package dev.headroom.judge;

import dev.headroom.sample.Direction;
import dev.headroom.sample.PerDirection;
import java.util.OptionalDouble;

/**
 * Ceilings the operator set ({@code --ceiling.download}, {@code --ceiling.upload}), in bytes/s.
 *
 * <p>Usage: {@code ConfigCeilings c = new ConfigCeilings(OptionalDouble.of(2.5e8), OptionalDouble.empty());}
 */
public record ConfigCeilings(PerDirection<OptionalDouble> bytesPerSecond) {
  public static final ConfigCeilings NONE = new ConfigCeilings(OptionalDouble.empty(), OptionalDouble.empty());

  public ConfigCeilings(OptionalDouble download, OptionalDouble upload) {
    this(new PerDirection<>(download, upload));
  }

  public OptionalDouble of(Direction d) {
    return bytesPerSecond.get(d);
  }
}
