package dev.headroom.read.wg;

/** The census fixtures for tests outside this package. */
public final class FixturesAccess {
  private FixturesAccess() {}

  /** {@code netbird-status-v0.5x.json}: a current client's status with five peers. */
  public static String v05x() {
    return Fixtures.read("netbird-status-v0.5x.json");
  }
}
