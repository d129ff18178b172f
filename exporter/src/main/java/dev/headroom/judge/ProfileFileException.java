package dev.headroom.judge;

import java.io.IOException;
import java.nio.file.Path;

/** A profile file that exists but says something unusable; the message names the file and the key. */
public final class ProfileFileException extends IOException {
  private final String key;

  public ProfileFileException(Path file, String key, String problem) {
    super("profile file " + file + ": " + (key == null ? "" : "key " + key + ": ") + problem);
    this.key = key;
  }

  /** The offending key, or null when the problem is the file as a whole. */
  public String key() {
    return key;
  }
}
