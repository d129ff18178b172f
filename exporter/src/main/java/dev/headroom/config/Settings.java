package dev.headroom.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * Every setting of the daemon, each defined once in the group it configures ({@link WebSettings},
 * {@link PathSettings}, {@link SampleSettings}, {@link CeilingSettings}, {@link NetbirdSettings},
 * {@link LabelSettings}, {@link CommandSettings}): a field there is a flag ({@code --key=value} or
 * {@code --key value}), a key of the YAML file named by {@code --config.file} (the same name without dashes) and
 * a line of {@code --help}, with one default and one converter whichever way the value comes; its accessor is
 * the value the code reads. The group order is the help order. A converter's message quotes the bad value;
 * {@link ConfigParser} names the key and where it came from, and each group checks what one value alone cannot
 * say.
 *
 * <p>Usage: {@code @Mixin Settings settings;} on a command that runs the sampler, parsed by {@code Settings.typed(cl)}.
 */
public final class Settings {
  @Mixin WebSettings web;
  @Mixin PathSettings paths;
  @Mixin SampleSettings sampling;
  @Mixin CeilingSettings ceilings;
  @Mixin NetbirdSettings netbird;
  @Mixin LabelSettings labels;
  @Mixin CommandSettings commands;
  @Option(names = "--config.file", paramLabel = "FILE", description = "YAML file with any of these keys")
  Path configFile;

  /** The checks one value alone cannot make, group by group, each naming its key where it came from. */
  Config check(Checks c) throws ConfigException {
    web.check(c);
    sampling.check(c);
    ceilings.check(c);
    // Sorted, so that of several zero durations the same one is named on every run.
    Map<String, Duration> positive = new TreeMap<>(Map.of("sample.interval", sampling.interval(),
        "sample.peak-window", sampling.peakWindow(), "ceiling.learn-after", ceilings.learnAfter(),
        "ceiling.cost-after", ceilings.costAfter(), "check.duration", commands.checkDuration(),
        "profile.max-duration", commands.profileMaxDuration()));
    for (Map.Entry<String, Duration> d : positive.entrySet()) {
      c.require(!d.getValue().isZero(), d.getKey(), "must be longer than zero");
    }
    for (String key : List.of("sample.peak-window", "ceiling.learn-after", "ceiling.cost-after")) {
      c.require(positive.get(key).compareTo(sampling.interval()) >= 0, key,
          "is shorter than sample.interval " + c.text("sample.interval"));
    }
    netbird.check(c);
    commands.check(c);
    return new Config(web, paths, sampling, ceilings, netbird, labels, commands);
  }

  /**
   * {@code cl} with the converters of the settings' types: durations in Prometheus's grammar (zero allowed here;
   * {@link ConfigParser} says where it is not), bit rates, and booleans as exactly {@code true} or {@code false}.
   */
  public static CommandLine typed(CommandLine cl) {
    cl.registerConverter(Duration.class, Quantities::durationOrZero);
    cl.registerConverter(OptionalDouble.class, v -> OptionalDouble.of(Quantities.bitRateToBytes(v)));
    cl.registerConverter(boolean.class, v -> switch (v.strip()) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new TypeConversionException("'" + v.strip() + "' is not true or false");
    });
    return cl;
  }
}
