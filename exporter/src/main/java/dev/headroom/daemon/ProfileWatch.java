package dev.headroom.daemon;

import dev.headroom.judge.MeasuredProfile;
import dev.headroom.judge.ProfileFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The profile file that {@code headroom profile} writes, re-read when its modification time changes (checked every
 * {@link #CHECK_NANOS} of the sampler's clock). A bad file is reported once and ignored, never fatal. Used by the
 * sampling thread only; {@link #current()} may be read from any thread.
 *
 * <p>Usage: {@code ProfileWatch w = new ProfileWatch(file, nanos); w.check(sample.monotonicNanos()); w.current();}
 */
final class ProfileWatch {
  private static final Logger log = LoggerFactory.getLogger(ProfileWatch.class);
  /** The profile file is re-read when it changes, checked this often. */
  static final long CHECK_NANOS = 10_000_000_000L;

  private final Path file;
  private volatile MeasuredProfile current;
  private FileTime seen;
  private long checkedAt;
  private String problem;

  ProfileWatch(Path file, long nanos) {
    this.file = file;
    this.checkedAt = nanos;
    this.current = load();
  }

  /** The measured profile the ceilings are chosen from; null for none. */
  MeasuredProfile current() {
    return current;
  }

  /** Re-reads the file if it is time to look and it changed. */
  void check(long nanos) {
    if (nanos - checkedAt < CHECK_NANOS) {
      return;
    }
    checkedAt = nanos;
    if (!Objects.equals(modified(), seen)) {
      current = load();
    }
  }

  private MeasuredProfile load() {
    seen = modified();
    try {
      MeasuredProfile p = ProfileFile.readIfPresent(file).orElse(null);
      if (p != null) {
        log.info("using the ceiling measured in {}", file);
      }
      problem = null;
      return p;
    } catch (IOException e) {
      String message = "ignoring profile file: " + e.getMessage();
      if (!message.equals(problem)) {
        log.warn("{}", message);
      }
      problem = message;
      return null;
    }
  }

  private FileTime modified() {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException e) {
      return null;
    }
  }
}
