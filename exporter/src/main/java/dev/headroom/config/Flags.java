package dev.headroom.config;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.OverwrittenOptionException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The command-line grammar every headroom command shares, on picocli: one help layout, {@code @file} arguments
 * taken literally (a value may start with {@code @}), and errors worded one way (an unknown flag or command with
 * the nearest known one, a missing value, a repeated flag, a stray argument).
 *
 * <p>Usage: {@code int code = Flags.layout(new CommandLine(command)).execute(args);}
 */
public final class Flags {
  private Flags() {}

  /** Applies headroom's help layout and parsing rules to {@code cl} and its subcommands; returns it. */
  public static CommandLine layout(CommandLine cl) {
    cl.setExpandAtFiles(false);
    cl.getCommandSpec().usageMessage().synopsisHeading("usage: ").abbreviateSynopsis(true).sortOptions(false)
        .width(100).longOptionsMaxWidth(36).optionListHeading("%nflags:%n").commandListHeading("%ncommands:%n");
    cl.getSubcommands().values().forEach(Flags::layout);
    return cl;
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
    if (e.getArgSpec() instanceof OptionSpec o && e.getCause() != null) {
      return o.longestName() + ": " + e.getCause().getMessage(); // a converter's words, which quote the value
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
}
