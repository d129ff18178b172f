package dev.headroom.cmd;

import dev.headroom.config.Flags;
import dev.headroom.config.SettingFlags;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * headroom's command line on picocli: {@code headroom [serve|check|profile|size|help] [flags]}. It answers help,
 * version and bad flags itself, runs {@code size} (a calculator that exits), and hands every other command back
 * to {@link Main} as its name and flags.
 *
 * <p>Usage: {@code Main.Command c = CommandLines.parse(new String[] {"check", "--tunnel.interface=wt0"},
 * System.out, System.err);}
 */
public final class CommandLines {
  private CommandLines() {}

  /** Every command, with the line the top-level help lists it by; the order is the help's. */
  private static final Map<String, String> COMMANDS = new LinkedHashMap<>();

  static {
    COMMANDS.put("serve", "Sample every --sample.interval and serve the metrics, the live page and the status API.");
    COMMANDS.put("check", "Sample for --check.duration, print the reading in words; exit 1 without a tunnel interface.");
    COMMANDS.put("profile", "Measure this peer's ceiling while iperf3 drives load; write it to --profile.file.");
    COMMANDS.put("size", "How many routing peers and Networks carry the peak (see headroom size --help).");
    COMMANDS.put("help", "Print a command's flags: headroom help size.");
  }

  /**
   * The command line for these arguments. Every command is known by name (for "did you mean" and the list in
   * {@code --help}), but only the one that runs, or whose help is asked for, gets its flags: a start builds one
   * set of options, not five (picocli's classes are Java 5 bytecode, which the class-data archive cannot hold, so
   * each one a start needs is loaded and verified from the jar).
   */
  static CommandLine commandLine(String[] args) {
    String named = args.length > 0 && COMMANDS.containsKey(args[0]) ? args[0] : null;
    String full = named;
    if ("help".equals(named)) {
      full = args.length > 1 && COMMANDS.containsKey(args[1]) ? args[1] : null;
    }
    CommandSpec top = Flags.command("headroom",
        "Per-direction headroom of a WireGuard routing peer, for Prometheus. Without a command: serve.");
    if (full == null) {
      SettingFlags.withSettings(top); // the flags of the default command, serve
    }
    CommandLine.IVersionProvider version = () -> new String[] {"headroom " + Version.get()}; // read only if asked
    top.versionProvider(version);
    CommandLine cl = Flags.commandLine(top, true);
    for (Map.Entry<String, String> c : COMMANDS.entrySet()) {
      String name = c.getKey();
      CommandSpec spec;
      if (!name.equals(full)) {
        spec = CommandSpec.create().name(name);
        spec.usageMessage().description(c.getValue());
      } else if (name.equals("size")) {
        spec = SizeCommand.spec();
      } else {
        spec = SettingFlags.withSettings(Flags.command(name, c.getValue()));
      }
      if (name.equals("help")) {
        spec.addPositional(PositionalParamSpec.builder().paramLabel("COMMAND").arity("0..1").type(String.class)
            .build());
      }
      spec.versionProvider(version);
      cl.addSubcommand(name, Flags.commandLine(spec, !name.equals("size")));
    }
    return cl;
  }

  /**
   * Parses {@code args}: a command to run with its flags, or, when help, the version, a bad flag or {@code size}
   * has already been answered here, only the exit code.
   */
  public static Main.Command parse(String[] args, PrintStream out, PrintStream err) {
    CommandLine cl = commandLine(args);
    PrintWriter helpOut = new PrintWriter(out, true);
    cl.setOut(helpOut);
    ParseResult top;
    try {
      top = cl.parseArgs(args);
    } catch (ParameterException e) {
      CommandLine at = e.getCommandLine();
      String who = at.getCommandSpec().qualifiedName();
      err.println(who + ": " + Flags.message(e));
      if (at.getCommandName().equals("size")) {
        at.usage(err);
      } else {
        err.println("see '" + who + " --help'");
      }
      return Main.Command.exit(2);
    }
    Integer helped = CommandLine.executeHelpRequest(top); // --help, --version
    if (helped != null) {
      helpOut.flush();
      return Main.Command.exit(helped);
    }
    ParseResult leaf = top.hasSubcommand() ? top.subcommand() : top;
    if (leaf != top && leaf.commandSpec().name().equals("help")) {
      String of = leaf.matchedPositionals().isEmpty() ? null : leaf.matchedPositionals().get(0).getValue();
      if (of != null && !COMMANDS.containsKey(of)) {
        err.println("headroom help: unknown command '" + of + "' (commands: " + String.join(", ", COMMANDS.keySet())
            + ")");
        return Main.Command.exit(2);
      }
      (of == null ? cl : cl.getSubcommands().get(of)).usage(out);
      return Main.Command.exit(0);
    }
    String command = leaf == top ? "serve" : leaf.commandSpec().name();
    if (command.equals("size")) {
      return Main.Command.exit(SizeCommand.run(leaf, out, err));
    }
    // Flags before the command word and after it both count; those after it win.
    Map<String, String> flags = new LinkedHashMap<>(SettingFlags.flags(top));
    if (leaf != top) {
      flags.putAll(SettingFlags.flags(leaf));
    }
    return new Main.Command(command, flags, 0);
  }
}
