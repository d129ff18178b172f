package dev.headroom.config;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The flags of {@link ConfigParser#SETTINGS} on picocli: one per setting, with the same names and defaults the
 * config file takes, so the two cannot drift apart.
 *
 * <p>Usage: {@code CommandSpec serve = SettingFlags.withSettings(Flags.command("serve", "Serves."));}
 */
public final class SettingFlags {
  private SettingFlags() {}

  /** Adds one flag per setting to a command that runs the sampler ({@code serve}, {@code check}, {@code profile}). */
  public static CommandSpec withSettings(CommandSpec spec) {
    for (Map.Entry<String, String[]> e : ConfigParser.SETTINGS.entrySet()) {
      String d = e.getValue()[0];
      Flags.option(spec, "--" + e.getKey(), "VALUE", e.getValue()[1] + (d.isEmpty() ? "" : " (default " + d + ")"));
    }
    return spec;
  }

  /** The settings given as flags in one parse: key (without dashes) to value. */
  public static Map<String, String> flags(ParseResult pr) {
    Map<String, String> out = new LinkedHashMap<>();
    Flags.values(pr).forEach((name, value) -> {
      if (name.startsWith("--") && ConfigParser.SETTINGS.containsKey(name.substring(2))) {
        out.put(name.substring(2), value);
      }
    });
    return out;
  }

  /** Parses a command line of setting flags only (no command word): key (without dashes) to value. */
  public static Map<String, String> parse(String[] args) throws ConfigException {
    try {
      return flags(Flags.commandLine(withSettings(Flags.command("headroom", "")), true).parseArgs(args));
    } catch (ParameterException e) {
      throw new ConfigException(Flags.message(e));
    }
  }

  /** The nearest setting to {@code key}, found the way a mistyped flag's is; empty if none is near. */
  public static String nearest(String key) {
    String flag = Flags.nearest(withSettings(Flags.command("headroom", "")), "--" + key);
    return flag.isEmpty() ? "" : flag.substring(2);
  }
}
