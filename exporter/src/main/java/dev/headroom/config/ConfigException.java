package dev.headroom.config;

/**
 * Bad configuration: the message names the flag or key and what is wrong with it.
 *
 * <p>Usage: {@code throw new ConfigException("--sample.interval: '0s' must be positive");}
 */
public final class ConfigException extends Exception {
  public ConfigException(String message) {
    super(message);
  }
}
