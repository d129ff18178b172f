package dev.headroom.cmd;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The build's version, from a resource Maven fills in. Usage: {@code Version.get()}. */
public final class Version {
  private Version() {}

  public static String get() {
    try (InputStream in = Version.class.getResourceAsStream("/headroom-build.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
