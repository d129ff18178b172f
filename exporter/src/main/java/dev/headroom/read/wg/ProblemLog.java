package dev.headroom.read.wg;

import java.util.Optional;
import org.slf4j.Logger;

/**
 * The last problem of a reader of NetBird, logged once per distinct reason (a call every few seconds must not
 * log the same failure every few seconds), and a line when it reads again.
 *
 * <p>Usage: {@code return problems.failed("netbird not installed", true); ... problems.ok("netbird status readable again");}
 */
final class ProblemLog {
  private final Logger log;
  private String last;

  ProblemLog(Logger log) {
    this.log = log;
  }

  /** Records a failed read; logs it when it differs from the last (at info when {@code quiet}: a usual state). */
  <T> Optional<T> failed(String message, boolean quiet) {
    if (!message.equals(last)) {
      if (quiet) {
        log.info(message);
      } else {
        log.warn(message);
      }
    }
    last = message;
    return Optional.empty();
  }

  /** Records a good read; says so once after a failure. */
  void ok(String readableAgain) {
    if (last != null) {
      log.info(readableAgain);
    }
    last = null;
  }

  Optional<String> last() {
    return Optional.ofNullable(last);
  }
}
