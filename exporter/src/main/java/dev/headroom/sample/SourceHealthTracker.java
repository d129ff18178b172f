package dev.headroom.sample;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One source's read outcomes: counts failures and logs one line when the source is lost and one when it
 * reads again, never one a second while it stays lost. Only the sampling thread calls it.
 *
 * <p>Usage: {@code health.failed(e.getMessage()); SourceHealth h = health.snapshot();}
 */
public final class SourceHealthTracker {
  private static final Logger log = LoggerFactory.getLogger(Sampler.class);

  private final String source;
  private boolean up = true;
  private long errors;
  private String lastError = "";
  /** The last snapshot, handed out again while nothing changed: a healthy source allocates nothing. */
  private SourceHealth snapshot;

  public SourceHealthTracker(String source) {
    this.source = source;
  }

  public void ok() {
    if (!up) {
      log.info("{} reads again after {} failed reads", source, errors);
    }
    up = true;
  }

  public void failed(String message) {
    errors++;
    lastError = message;
    if (up) {
      log.warn("{} read failed (still sampling the rest; logged again only after it recovers): {}", source, message);
    }
    up = false;
  }

  public boolean up() {
    return up;
  }

  public SourceHealth snapshot() {
    if (snapshot == null || snapshot.up() != up || snapshot.errors() != errors) {
      snapshot = new SourceHealth(up, errors, lastError);
    }
    return snapshot;
  }
}
