package dev.headroom.daemon;

import dev.headroom.judge.Learned;
import dev.headroom.judge.StateFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import dev.headroom.judge.Units;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The learner's state file under {@code --path.state}: read once at start, written when the learner asks. A failure
 * is logged once (until a different one), counted, and learning goes on in memory; {@link #health()} is what the
 * scrape shows of it. Used by the sampling thread only; {@link #health()} may be read from any thread.
 *
 * <p>Usage: {@code StateStore s = new StateStore(dir); CeilingLearner l = new CeilingLearner(..., s.load()); s.save(l.contents());}
 */
final class StateStore {
  private static final Logger log = LoggerFactory.getLogger(StateStore.class);

  private final Path dir;
  private final Path file;
  private volatile Learned.Store health;

  StateStore(Path dir) {
    this.dir = dir;
    this.file = dir.resolve(StateFile.NAME);
    this.health = new Learned.Store(file.toString(), true, 0, "");
  }

  /** The state file's health, for the published snapshot. */
  Learned.Store health() {
    return health;
  }

  /** What the state file holds; null for nothing (no file, a missing directory, or a file that is not ours). */
  StateFile.Contents load() {
    // systemd makes it (StateDirectory=) with the service's owner; made here it would be root's.
    if (!Files.isDirectory(dir)) {
      failed(missingDir());
      return null;
    }
    try {
      StateFile.Contents c = StateFile.read(file).orElse(null);
      if (c != null && !c.ceilings().isEmpty()) {
        log.info("observed ceilings from {}: {}", file, c.ceilings().entrySet().stream()
            .map(e -> e.getKey().label() + " " + Units.gbpsText(e.getValue().bytesPerSecond()))
            .collect(Collectors.joining(", ")));
      }
      return c;
    } catch (IOException | RuntimeException e) {
      failed("ignoring " + e.getMessage() + "; learning starts over");
      return null;
    }
  }

  /** Writes {@code contents}; a failure is logged once, counted, and learning goes on in memory. */
  void save(StateFile.Contents contents) {
    if (!Files.isDirectory(dir)) {
      failed(missingDir());
      return;
    }
    try {
      StateFile.write(file, contents);
      health = new Learned.Store(file.toString(), true, health.errors(), health.lastError());
    } catch (IOException | RuntimeException e) {
      failed("cannot write the state file " + file + " (observed ceilings are kept in memory only): "
          + e.getMessage());
    }
  }

  private void failed(String message) {
    // The same failure again (a directory still missing) is counted, not logged again.
    if (health.up() || !message.equals(health.lastError())) {
      log.warn("{}", message);
    }
    health = new Learned.Store(file.toString(), false, health.errors() + 1, message);
  }

  private String missingDir() {
    return "state directory " + dir + " is missing (observed ceilings are kept in memory only; set --path.state"
        + " or create it)";
  }
}
