package dev.headroom.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.OverwrittenOptionException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The command-line grammar every headroom command shares, on picocli: options that take one value
 * ({@code --key=value} or {@code --key value}), {@code -h/--help} and {@code -V/--version} on every command, help
 * in one layout, and errors worded one way (an unknown flag or command with the nearest known one, a missing
 * value, a repeated flag, a stray argument). Values stay strings here; each command converts them, so a YAML key
 * and its flag go through the same checks.
 *
 * <p>Usage: {@code CommandSpec spec = Flags.command("size", "Sizes peers."); Flags.option(spec, "--vcpus", "N",
 * "vCPUs"); Map<String, String> given = Flags.values(Flags.commandLine(spec, false).parseArgs(args));}
 */
public final class Flags {
  private Flags() {}

  /** A command with the standard help and version options and headroom's help layout. */
  public static CommandSpec command(String name, String description) {
    CommandSpec spec = CommandSpec.create().name(name).mixinStandardHelpOptions(true);
    spec.usageMessage().synopsisHeading("usage: ").description(escape(description)).abbreviateSynopsis(true)
        .sortOptions(false).width(100).longOptionsMaxWidth(36).optionListHeading("%nflags:%n")
        .commandListHeading("%ncommands:%n");
    return spec;
  }

  /** Adds an option that takes exactly one value; {@code label} names the value in the help. */
  public static void option(CommandSpec spec, String name, String label, String help) {
    spec.addOption(OptionSpec.builder(name).paramLabel(label).type(String.class).arity("1")
        .description(escape(help)).build());
  }

  /**
   * The parser for a command: {@code @file} arguments are taken literally (a value may start with {@code @}),
   * and a flag given twice is an error unless {@code lastWins} (the daemon's flags, where a wrapper may append an
   * override to the unit's command line, as with Prometheus exporters).
   */
  public static CommandLine commandLine(CommandSpec spec, boolean lastWins) {
    CommandLine cl = new CommandLine(spec);
    cl.setExpandAtFiles(false);
    cl.setOverwrittenOptionsAllowed(lastWins);
    return cl;
  }

  /** The options given in one parse, by long name (with dashes), each with its last value. */
  public static Map<String, String> values(ParseResult pr) {
    Map<String, String> out = new LinkedHashMap<>();
    for (OptionSpec o : pr.matchedOptions()) {
      if (!o.usageHelp() && !o.versionHelp()) {
        out.put(o.longestName(), o.getValue());
      }
    }
    return out;
  }

  /** The error in headroom's words: what was wrong, named as the user typed it. */
  public static String message(ParameterException e) {
    if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
      String arg = u.getUnmatched().get(0);
      if (u.isUnknownOption()) {
        int eq = arg.indexOf('=');
        return "unknown flag '" + (eq > 0 ? arg.substring(0, eq) : arg) + "'" + didYouMean(u.getSuggestions());
      }
      if (!e.getCommandLine().getSubcommands().isEmpty()) {
        return "unknown command '" + arg + "'" + didYouMean(u.getSuggestions()) + " (commands: "
            + String.join(", ", e.getCommandLine().getSubcommands().keySet()) + ")";
      }
      return "unexpected argument '" + arg + "'";
    }
    if (e instanceof MissingParameterException m && !m.getMissing().isEmpty()
        && m.getMissing().get(0) instanceof OptionSpec o) {
      return o.longestName() + " needs a value (" + o.longestName() + "=" + o.paramLabel() + ")";
    }
    if (e instanceof OverwrittenOptionException o && o.getOverwritten() instanceof OptionSpec option) {
      return option.longestName() + " given twice";
    }
    return e.getMessage();
  }

  /** picocli's nearest known flag to {@code flag} in {@code spec}, for keys that arrive other than as flags. */
  public static String nearest(CommandSpec spec, String flag) {
    List<String> s = new UnmatchedArgumentException(new CommandLine(spec), List.of(flag)).getSuggestions();
    return s.isEmpty() ? "" : s.get(0);
  }

  private static String didYouMean(List<String> suggestions) {
    return suggestions.isEmpty() ? "" : "; did you mean '" + suggestions.get(0) + "'?";
  }

  /** Help text is a format string to picocli; a literal percent sign must be doubled. */
  private static String escape(String help) {
    return help.replace("%", "%%");
  }
}
