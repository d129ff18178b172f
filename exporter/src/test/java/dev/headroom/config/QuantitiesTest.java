package dev.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuantitiesTest {
  @ParameterizedTest
  @CsvSource({"500ms,500", "1s,1000", "5m,300000", "1h30m,5400000", "7d,604800000", "1w,604800000",
      "1y,31536000000", "2h0m5s,7205000"})
  void durationsUseThePrometheusGrammar(String text, long millis) {
    assertEquals(Duration.ofMillis(millis), Quantities.durationOrZero(text));
  }

  @Test
  void zeroIsOffOnlyWhereTheKeyAllowsIt() throws ConfigException {
    assertEquals(Duration.ZERO, Quantities.durationOrZero("0s"));
    assertEquals(Duration.ZERO, Quantities.durationOrZero("0"));
    assertEquals(Duration.ZERO, ConfigParser.parse(new String[] {"--census.interval=0s"}).config().sampling().censusInterval());
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigParser.parse(new String[] {"--sample.interval=0s"}));
    assertTrue(e.getMessage().startsWith("--sample.interval: '0s' must be longer than zero"), e.getMessage());
  }

  @Test
  void ofSeveralZeroDurationsTheFirstInKeyOrderIsNamed() {
    ConfigException e = assertThrows(ConfigException.class, () -> ConfigParser.parse(new String[] {
        "--sample.interval=0s", "--profile.max-duration=0s", "--check.duration=0s", "--ceiling.learn-after=0s"}));
    assertTrue(e.getMessage().startsWith("--ceiling.learn-after: '0s' must be longer than zero"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"30m1h", "1.5s", "5", "1d1d", "-1s", "10 s", "''", "99999999999y"})
  void otherTextIsNotADurationAndTheKeyIsNamed(String text) {
    assertThrows(IllegalArgumentException.class, () -> Quantities.durationOrZero(text));
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigParser.parse(new String[] {"--sample.interval=" + text}));
    assertTrue(e.getMessage().startsWith("--sample.interval: '" + text + "' is "), e.getMessage());
  }
}
