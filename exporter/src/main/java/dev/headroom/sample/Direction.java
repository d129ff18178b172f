package dev.headroom.sample;

/**
 * A direction of user traffic through the routing peer, named from the user's point of view.
 *
 * <p>Usage: {@code for (Direction d : Direction.values()) System.out.println(d.label() + " " + sample.throughput(d));}
 */
public enum Direction {
  /** Users pull: the peer encrypts; bytes leave through the tunnel interface (tunnel TX). */
  DOWNLOAD("download"),
  /** Users push: the peer decrypts; bytes arrive on the tunnel interface (tunnel RX). */
  UPLOAD("upload");

  private final String label;

  Direction(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /** The opposite direction. */
  public Direction other() {
    return this == DOWNLOAD ? UPLOAD : DOWNLOAD;
  }
}
