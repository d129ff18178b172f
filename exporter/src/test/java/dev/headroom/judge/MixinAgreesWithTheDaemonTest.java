package dev.headroom.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.sample.Direction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The alert rules' defaults (alerts/mixin/config.libsonnet) are the daemon's figures: a threshold the rules and the
 * daemon both apply is defined in the daemon and the mixin's default must equal it, so a page and the live page
 * never disagree about the same peer.
 */
class MixinAgreesWithTheDaemonTest {
  private static final String CONFIG = "../alerts/mixin/config.libsonnet";

  private static double setting(String config, String name) {
    Matcher m = Pattern.compile("\\b" + name + ":\\s*([0-9.]+)").matcher(config);
    assertTrue(m.find(), name + " in " + CONFIG);
    return Double.parseDouble(m.group(1));
  }

  @Test
  void theUserspacePlateauTheRulesWarnAtIsTheDaemons() throws Exception {
    String c = Files.readString(Path.of(CONFIG));
    assertEquals(ReferenceProfile.userspacePlateauGbps(Direction.DOWNLOAD),
        setting(c, "userspacePlateauDownloadGbps"), 1e-9);
    assertEquals(ReferenceProfile.userspacePlateauGbps(Direction.UPLOAD), setting(c, "userspacePlateauUploadGbps"),
        1e-9);
    assertEquals(Thresholds.defaults().userspacePlateauShare(), setting(c, "userspacePlateauShare"), 1e-9);
    assertEquals(Thresholds.defaults().nearCeiling(), setting(c, "userspacePlateauCeilingRatio"), 1e-9);
  }

  @Test
  void theNearCeilingShareTheRulesWarnAtIsTheDaemons() throws Exception {
    String c = Files.readString(Path.of(CONFIG));
    assertEquals(Thresholds.defaults().nearCeiling(), setting(c, "peerNearCeilingThreshold"), 1e-9);
    assertEquals(Sizing.NEAR_CEILING, setting(c, "peerNearCeilingThreshold"), 1e-9);
  }
}
