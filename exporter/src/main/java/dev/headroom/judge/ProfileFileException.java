package dev.headroom.judge;

import java.io.IOException;
import java.nio.file.Path;

/** A profile file that exists but says something unusable; the message names the file and the key. */
public final class ProfileFileException extends IOException {
  /** {@code key} is null when the problem is the file as a whole. */
  public ProfileFileException(Path file, String key, String problem) {
    super("profile file " + file + ": " + (key == null ? "" : "key " + key + ": ") + problem);
  }
}
