package dev.headroom.config;

/**
 * What a settings group needs to refuse a value one converter alone cannot judge: the setting named the way it
 * was given (flag or config-file key) and quoted as written.
 *
 * <p>Usage: {@code checks.require(port <= 65535, "web.listen-address", "has a port outside 0..65535");}
 */
interface Checks {
  /** Throws {@code where: 'value' problem} unless {@code ok}. */
  void require(boolean ok, String key, String problem) throws ConfigException;

  /** The setting {@code key} as written (flag, file or default). */
  String text(String key);
}
