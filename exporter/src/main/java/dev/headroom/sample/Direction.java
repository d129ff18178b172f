package dev.headroom.sample;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * A direction of user traffic through the routing peer, named from the user's point of view.
 *
 * <p>Usage: {@code for (Direction d : Direction.values()) System.out.println(d.label() + " " + sample.throughput(d));}
 */
public enum Direction {
  /** Users pull: the peer encrypts; bytes leave through the tunnel interface (tunnel TX). */
  DOWNLOAD,
  /** Users push: the peer decrypts; bytes arrive on the tunnel interface (tunnel RX). */
  UPLOAD;

  private final String label = name().toLowerCase(Locale.ROOT);

  public String label() {
    return label;
  }

  /** The side of an interface this direction crosses: download leaves by transmit, upload arrives by receive. */
  public String side() {
    return this == DOWNLOAD ? "transmit" : "receive";
  }

  public Direction other() {
    return this == DOWNLOAD ? UPLOAD : DOWNLOAD;
  }

  /** A mutable map holding {@code value} of each direction. */
  public static <V> Map<Direction, V> each(Function<Direction, V> value) {
    Map<Direction, V> m = new EnumMap<>(Direction.class);
    for (Direction d : values()) {
      m.put(d, value.apply(d));
    }
    return m;
  }
}
