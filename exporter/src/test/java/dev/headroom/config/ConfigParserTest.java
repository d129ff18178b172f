package dev.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigParserTest {
  @TempDir Path dir;

  @Test
  void noArgumentsGiveWorkingDefaults() throws Exception {
    Config c = ConfigParser.parse(new String[0]).config();
    assertEquals(10170, c.web().port());
    assertEquals("", c.web().host());
    assertEquals("/metrics", c.web().telemetryPath());
    assertEquals("wt0", c.sampling().tunnelInterface());
    assertEquals(Optional.empty(), c.sampling().underlayInterface());
    assertEquals(Duration.ofSeconds(1), c.sampling().interval());
    assertEquals(Path.of("/sys"), c.paths().sysfs());
    assertEquals(List.of("netbird", "wireguard-go"), c.sampling().datapathProcesses());
  }

  @Test
  void flagsInBothSpellings() throws Exception {
    Config c = ConfigParser.parse(new String[] {"--tunnel.interface", "wt1", "--underlay.line-rate=200mbit",
        "--web.listen-address=127.0.0.1:9999"}).config();
    assertEquals("wt1", c.sampling().tunnelInterface());
    assertEquals(25_000_000, c.sampling().underlayLineRate().getAsDouble(), 1e-6);
    assertEquals("127.0.0.1", c.web().host());
    assertEquals(9999, c.web().port());
  }

  @Test
  void unknownFlagIsNamedWithASuggestion() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigParser.parse(new String[] {"--tunnel.interfce=wt0"}));
    assertTrue(e.getMessage().contains("--tunnel.interfce"), e.getMessage());
    assertTrue(e.getMessage().contains("tunnel.interface"), e.getMessage());
  }

  @Test
  void badValuesNameTheKeyAndTheProblem() {
    assertMessage(new String[] {"--sample.interval=0s"}, "sample.interval");
    assertMessage(new String[] {"--sample.interval=fast"}, "not a duration");
    assertMessage(new String[] {"--underlay.line-rate=10"}, "unit");
    assertMessage(new String[] {"--web.listen-address=10170"}, "needs a port");
    assertMessage(new String[] {"--web.listen-address=:99999"}, "outside");
    assertMessage(new String[] {"--cpu.saturation=1.5"}, "cpu.saturation");
    assertMessage(new String[] {"--tunnel.interface=a/b"}, "interface name");
    assertMessage(new String[] {"--underlay.interface=wt0"}, "tunnel itself");
    assertMessage(new String[] {"--tunnel.interface"}, "needs a value");
    assertMessage(new String[] {"--sample.interval=10s", "--sample.peak-window=5s"}, "shorter");
    assertMessage(new String[] {"--netbird.metrics-address=localhost"}, "netbird.metrics-address");
  }

  @Test
  void yamlFileIsReadAndFlagsWin() throws Exception {
    Path f = dir.resolve("headroom.yml");
    Files.writeString(f, "tunnel:\n  interface: wt5\nunderlay.line-rate: 10gbit\nlabels:\n  network: dc-east\n"
        + "datapath.process: [netbird]\n");
    Config c = ConfigParser.parse(new String[] {"--config.file=" + f, "--tunnel.interface=wt6"}).config();
    assertEquals("wt6", c.sampling().tunnelInterface());
    assertEquals(1.25e9, c.sampling().underlayLineRate().getAsDouble(), 1);
    assertEquals("dc-east", c.labels().network());
    assertEquals(List.of("netbird"), c.sampling().datapathProcesses());
  }

  @Test
  void yamlUnknownKeyIsNamedWithTheFile() throws Exception {
    Path f = dir.resolve("bad.yml");
    Files.writeString(f, "tunnel.interface: wt0\nsample.intervall: 2s\n");
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigParser.parse(new String[] {"--config.file=" + f}));
    assertTrue(e.getMessage().contains("sample.intervall") && e.getMessage().contains(f.toString()), e.getMessage());
  }

  @Test
  void yamlUnknownKeyGetsTheSameSuggestionAsAMistypedFlag() throws Exception {
    Path f = dir.resolve("typo.yml");
    Files.writeString(f, "sample:\n  intervall: 2s\n");
    assertMessage(new String[] {"--config.file=" + f}, "did you mean 'sample.interval'");
    assertMessage(new String[] {"--sample.intervall=2s"}, "did you mean '--sample.interval'");
  }

  @Test
  void everyFlagIsAlsoAFileKeyWithTheSameDefault() throws Exception {
    // One list of settings: writing every default into the file under its flag's name changes nothing.
    StringBuilder yaml = new StringBuilder();
    new picocli.CommandLine(new Settings()).getCommandSpec().options().forEach(o -> {
      if (o.longestName().startsWith("--") && o.defaultValue() != null) {
        yaml.append(o.longestName().substring(2)).append(": '").append(o.defaultValue()).append("'\n");
      }
    });
    Path f = dir.resolve("defaults.yml");
    Files.writeString(f, yaml);
    Config fromFile = ConfigParser.parse(new String[] {"--config.file=" + f}).config();
    assertEquals(ConfigParser.parse(new String[0]).config(), fromFile);
  }

  @Test
  void aBadValueInTheFileNamesTheKeyAndTheValue() throws Exception {
    Path f = dir.resolve("bad-value.yml");
    Files.writeString(f, "sample:\n  interval: soon\n");
    assertMessage(new String[] {"--config.file=" + f}, "config file " + f + ": sample.interval: 'soon'");
    assertMessage(new String[] {"--sample.interval=soon"}, "--sample.interval: 'soon'");
  }

  @Test
  void yamlThatIsNotAMapOrNotYamlIsRejected() throws Exception {
    Path list = dir.resolve("list.yml");
    Files.writeString(list, "- a\n- b\n");
    assertMessage(new String[] {"--config.file=" + list}, "map");
    Path broken = dir.resolve("broken.yml");
    Files.writeString(broken, "tunnel.interface: [wt0\n");
    assertMessage(new String[] {"--config.file=" + broken}, "not valid YAML");
    assertMessage(new String[] {"--config.file=" + dir.resolve("missing.yml")}, "cannot read");
  }

  @Test
  void bitRatesInTheUsualSpellings() throws Exception {
    assertEquals(312_500_000, Quantities.bitRateToBytes("2.5gbit"), 1e-3);
    assertEquals(1.25e9, Quantities.bitRateToBytes("10Gbps"), 1e-3);
    assertEquals(125_000, Quantities.bitRateToBytes("1mbit"), 1e-3);
  }

  @Test
  void profileStepsAndBaselineAreSettings() throws Exception {
    Config c = ConfigParser.parse(new String[] {"--profile.steps=5", "--profile.baseline=192.0.2.7"}).config();
    assertEquals(5, c.commands().profileSteps());
    assertEquals(java.util.Optional.of("192.0.2.7"), c.commands().profileBaseline());
    Config d = ConfigParser.parse(new String[0]).config();
    assertEquals(8, d.commands().profileSteps());
    assertTrue(d.commands().profileBaseline().isEmpty());
    // Two steps cannot show two steps adding load without a gain after the first.
    assertMessage(new String[] {"--profile.steps=2"}, "profile.steps: '2' must be a whole number from 3 to 64");
    assertMessage(new String[] {"--profile.steps=many"}, "profile.steps");
  }

  private static void assertMessage(String[] args, String fragment) {
    ConfigException e = assertThrows(ConfigException.class, () -> ConfigParser.parse(args), String.join(" ", args));
    assertTrue(e.getMessage().contains(fragment), "'" + e.getMessage() + "' should mention " + fragment);
  }
}
