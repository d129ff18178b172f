package dev.headroom.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The text the daemon writes for people reads the same whatever the JVM's default locale. */
class LocaleIndependentTextTest {
  @TempDir Path dir;
  private final Locale before = Locale.getDefault();

  @AfterEach
  void restore() {
    Locale.setDefault(before);
  }

  @Test
  void theReadingInWordsIsTheSameUnderAGermanDefaultLocale() throws Exception {
    Published p = GoldenMetricsTest.published("kernel", dir);
    Locale.setDefault(Locale.ROOT);
    String root = InWords.describe(p, 0.9);
    Locale.setDefault(Locale.GERMANY);
    String german = InWords.describe(p, 0.9);
    assertEquals(root, german);
    assertTrue(Pattern.compile("\\d\\.\\d{3} Gbps").matcher(german).find(), "decimal point, not comma: " + german);
  }

  @Test
  void readinessSaysHowLongAgoWithADecimalPoint() throws Exception {
    Published p = GoldenMetricsTest.published("kernel", dir);
    Locale.setDefault(Locale.GERMANY);
    String reason = new Readiness(java.time.Duration.ofSeconds(1))
        .check(p, p.sample().monotonicNanos() + 12_340_000_000L).reason();
    assertEquals("sampling stalled: last sample 12.3 s ago", reason);
  }
}
